//! The property registry: every property of SGF FF\[1\]–FF\[4\], the Go-specific
//! ones and known private ones, with value type, property type and inherit
//! flag (spec document 001; the FF\[1\] set from document 002; FF\[3\] from the
//! official FF\[1\]–FF\[4\] property index).

/// The property type, which restricts where a property may stand.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PropKind {
    /// Describes a move; must not share a node with setup properties.
    Move,
    /// Describes a position; must not share a node with move properties.
    Setup,
    /// Only in root nodes.
    Root,
    /// Game information; only one game-info node per path.
    GameInfo,
    /// No restriction.
    None,
}

impl PropKind {
    /// Name as in the specification.
    pub fn as_str(self) -> &'static str {
        match self {
            PropKind::Move => "move",
            PropKind::Setup => "setup",
            PropKind::Root => "root",
            PropKind::GameInfo => "game-info",
            PropKind::None => "-",
        }
    }
}

/// The value type of a property, as the specification writes it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ValueType {
    /// `[]` only.
    None,
    /// `[+-]digits`.
    Number,
    /// Number with an optional fraction.
    Real,
    /// `1` (normal) or `2` (emphasised).
    Double,
    /// `B` or `W`.
    Color,
    /// One line of text.
    SimpleText,
    /// Formatted text.
    Text,
    /// A point.
    Point,
    /// A move (a point or a pass).
    Move,
    /// A stone (a point).
    Stone,
    /// List of points, compressed rectangles allowed.
    ListOfPoint,
    /// List of points or a single empty value `[]`.
    EListOfPoint,
    /// List of stones, compressed rectangles allowed.
    ListOfStone,
    /// List of `point:point` (`AR`, `LN`).
    ListOfPointPoint,
    /// List of `point:simpletext` (`LB`).
    ListOfPointText,
    /// `simpletext:simpletext` (`AP`).
    TextText,
    /// `number` or `number:number` (`SZ`).
    Size,
    /// None, or `number:simpletext` (`FG`).
    Figure,
    /// Anything (unknown properties): raw values kept.
    Unknown,
}

impl ValueType {
    /// Whether the property takes a list of values.
    pub fn is_list(self) -> bool {
        matches!(
            self,
            ValueType::ListOfPoint
                | ValueType::EListOfPoint
                | ValueType::ListOfStone
                | ValueType::ListOfPointPoint
                | ValueType::ListOfPointText
                | ValueType::Unknown
        )
    }
    /// Whether the values are points (compressed lists allowed).
    pub fn is_point_list(self) -> bool {
        matches!(
            self,
            ValueType::ListOfPoint | ValueType::EListOfPoint | ValueType::ListOfStone
        )
    }
    /// Whether the value is decoded as text (charset applies).
    pub fn is_text(self) -> bool {
        matches!(
            self,
            ValueType::SimpleText
                | ValueType::Text
                | ValueType::ListOfPointText
                | ValueType::TextText
                | ValueType::Figure
        )
    }
    /// Whether values are composed `a:b` (always or optionally).
    pub fn is_composed(self) -> bool {
        matches!(
            self,
            ValueType::ListOfPointPoint
                | ValueType::ListOfPointText
                | ValueType::TextText
                | ValueType::Size
                | ValueType::Figure
        )
    }
    /// How the specification writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            ValueType::None => "none",
            ValueType::Number => "number",
            ValueType::Real => "real",
            ValueType::Double => "double",
            ValueType::Color => "color",
            ValueType::SimpleText => "simpletext",
            ValueType::Text => "text",
            ValueType::Point => "point",
            ValueType::Move => "move",
            ValueType::Stone => "stone",
            ValueType::ListOfPoint => "list of point",
            ValueType::EListOfPoint => "elist of point",
            ValueType::ListOfStone => "list of stone",
            ValueType::ListOfPointPoint => "list of composed point ':' point",
            ValueType::ListOfPointText => "list of composed point ':' simpletext",
            ValueType::TextText => "composed simpletext ':' simpletext",
            ValueType::Size => "number | composed number ':' number",
            ValueType::Figure => "none | composed number ':' simpletext",
            ValueType::Unknown => "unknown",
        }
    }
}

/// Which game a property belongs to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameScope {
    /// Any game.
    Any,
    /// Go (GM\[1\]).
    Go,
    /// Lines of Action (GM\[9\]).
    Loa,
}

/// FF versions a property is defined in, as a bit set.
pub mod ff {
    /// FF\[1\].
    pub const V1: u8 = 1;
    /// FF\[2\] (never published; as FF\[1\]).
    pub const V2: u8 = 2;
    /// FF\[3\].
    pub const V3: u8 = 4;
    /// FF\[4\].
    pub const V4: u8 = 8;
    /// FF\[1\]–FF\[4\].
    pub const ALL: u8 = V1 | V2 | V3 | V4;
    /// FF\[3\] and FF\[4\].
    pub const V34: u8 = V3 | V4;
    /// Not in any version (private).
    pub const PRIVATE: u8 = 0;
}

/// What the registry knows about one property.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PropInfo {
    /// FF\[4\] identifier.
    pub ident: &'static str,
    /// English name.
    pub name: &'static str,
    /// Property type.
    pub kind: PropKind,
    /// Value type.
    pub value: ValueType,
    /// Inherit properties hold for the node and its descendants.
    pub inherit: bool,
    /// FF versions (bits of [`ff`]).
    pub versions: u8,
    /// Game the property belongs to.
    pub game: GameScope,
    /// The FF\[4\] equivalent of a legacy property.
    pub replaced_by: Option<&'static str>,
    /// The application that defines a private property.
    pub application: Option<&'static str>,
}

impl PropInfo {
    /// Whether the property is part of FF\[4\].
    pub fn in_ff4(&self) -> bool {
        self.versions & ff::V4 != 0
    }
    /// Whether it is a legacy (FF\[1\]–FF\[3\] only) property.
    pub fn is_legacy(&self) -> bool {
        self.versions != ff::PRIVATE && !self.in_ff4()
    }
    /// Whether it is a known private property.
    pub fn is_private(&self) -> bool {
        self.application.is_some()
    }
}

macro_rules! p {
    ($id:literal, $name:literal, $kind:ident, $vt:ident, $inh:literal, $ver:expr, $game:ident) => {
        PropInfo {
            ident: $id,
            name: $name,
            kind: PropKind::$kind,
            value: ValueType::$vt,
            inherit: $inh,
            versions: $ver,
            game: GameScope::$game,
            replaced_by: None,
            application: None,
        }
    };
    ($id:literal, $name:literal, $kind:ident, $vt:ident, $inh:literal, $ver:expr, $game:ident, replaced $r:literal) => {
        PropInfo {
            ident: $id,
            name: $name,
            kind: PropKind::$kind,
            value: ValueType::$vt,
            inherit: $inh,
            versions: $ver,
            game: GameScope::$game,
            replaced_by: Some($r),
            application: None,
        }
    };
    ($id:literal, $name:literal, $kind:ident, $vt:ident, private $app:literal) => {
        PropInfo {
            ident: $id,
            name: $name,
            kind: PropKind::$kind,
            value: ValueType::$vt,
            inherit: false,
            versions: ff::PRIVATE,
            game: GameScope::Any,
            replaced_by: None,
            application: Some($app),
        }
    };
}

use ff::*;

/// Every known property, sorted by identifier.
pub static PROPERTIES: &[PropInfo] = &[
    p!("AB", "Add Black", Setup, ListOfStone, false, ALL, Any),
    p!("AE", "Add Empty", Setup, ListOfPoint, false, ALL, Any),
    p!("AN", "Annotation", GameInfo, SimpleText, false, V34, Any),
    p!("AP", "Application", Root, TextText, false, V4, Any),
    p!("AR", "Arrow", None, ListOfPointPoint, false, V4, Any),
    p!("AS", "Who adds stones", None, SimpleText, false, V4, Loa),
    p!("AW", "Add White", Setup, ListOfStone, false, ALL, Any),
    p!("B", "Black", Move, Move, false, ALL, Any),
    p!("BL", "Black time left", Move, Real, false, ALL, Any),
    p!("BM", "Bad move", Move, Double, false, ALL, Any),
    p!("BR", "Black rank", GameInfo, SimpleText, false, ALL, Any),
    p!(
        "BS",
        "Black species",
        GameInfo,
        Number,
        false,
        V1 | V2 | V3,
        Any
    ),
    p!("BT", "Black team", GameInfo, SimpleText, false, V34, Any),
    p!("C", "Comment", None, Text, false, ALL, Any),
    p!("CA", "Charset", Root, SimpleText, false, V4, Any),
    p!(
        "CH",
        "Check mark",
        None,
        Double,
        false,
        V1 | V2 | V3,
        Any,
        replaced "TE"
    ),
    p!("CP", "Copyright", GameInfo, SimpleText, false, V34, Any),
    p!("CR", "Circle", None, ListOfPoint, false, V34, Any),
    p!("DD", "Dim points", None, EListOfPoint, true, V4, Any),
    p!("DM", "Even position", None, Double, false, V34, Any),
    p!("DO", "Doubtful", Move, None, false, V34, Any),
    p!("DT", "Date", GameInfo, SimpleText, false, ALL, Any),
    p!(
        "EL",
        "Evaluation of computer move",
        None,
        Number,
        false,
        V1 | V2,
        Any,
        replaced "V"
    ),
    p!("EV", "Event", GameInfo, SimpleText, false, ALL, Any),
    p!("EX", "Expected move", None, Move, false, V1 | V2, Any),
    p!("FF", "Fileformat", Root, Number, false, V2 | V3 | V4, Any),
    p!("FG", "Figure", None, Figure, false, ALL, Any),
    p!("GB", "Good for Black", None, Double, false, ALL, Any),
    p!("GC", "Game comment", GameInfo, Text, false, ALL, Any),
    p!("GM", "Game", Root, Number, false, ALL, Any),
    p!("GN", "Game name", GameInfo, SimpleText, false, ALL, Any),
    p!("GW", "Good for White", None, Double, false, ALL, Any),
    p!("HA", "Handicap", GameInfo, Number, false, ALL, Go),
    p!("HO", "Hotspot", None, Double, false, V34, Any),
    p!(
        "ID",
        "Game identifier",
        GameInfo,
        SimpleText,
        false,
        V3,
        Any
    ),
    p!(
        "IP",
        "Initial position",
        GameInfo,
        SimpleText,
        false,
        V4,
        Loa
    ),
    p!("IT", "Interesting", Move, None, false, V34, Any),
    p!("IY", "Invert Y-axis", GameInfo, SimpleText, false, V4, Loa),
    p!(
        "KI",
        "Integer komi",
        GameInfo,
        Number,
        false,
        V3,
        Go,
        replaced "KM"
    ),
    p!("KM", "Komi", GameInfo, Real, false, ALL, Go),
    p!("KO", "Ko", Move, None, false, V34, Any),
    p!(
        "L",
        "Letters",
        None,
        ListOfPoint,
        false,
        V1 | V2,
        Any,
        replaced "LB"
    ),
    p!("LB", "Label", None, ListOfPointText, false, V34, Any),
    p!("LN", "Line", None, ListOfPointPoint, false, V34, Any),
    p!("LT", "Lose on time", None, None, false, V3, Any),
    p!(
        "M",
        "Marked points",
        None,
        ListOfPoint,
        false,
        V1 | V2,
        Any,
        replaced "MA"
    ),
    p!("MA", "Mark", None, ListOfPoint, false, V34, Any),
    p!("MN", "Set move number", Move, Number, false, V34, Any),
    p!("MULTIGOGM", "MultiGo game type", Root, Number, private "MultiGo"),
    p!("N", "Nodename", None, SimpleText, false, ALL, Any),
    p!("OB", "OtStones Black", Move, Number, false, V34, Any),
    p!(
        "OM",
        "Moves per overtime",
        GameInfo,
        Number,
        false,
        V3,
        Any,
        replaced "OT"
    ),
    p!("ON", "Opening", GameInfo, SimpleText, false, V34, Any),
    p!(
        "OP",
        "Overtime length",
        GameInfo,
        Real,
        false,
        V3,
        Any,
        replaced "OT"
    ),
    p!("OT", "Overtime", GameInfo, SimpleText, false, V4, Any),
    p!("OV", "Operator overhead", GameInfo, Real, false, V3, Any),
    p!("OW", "OtStones White", Move, Number, false, V34, Any),
    p!("PB", "Player Black", GameInfo, SimpleText, false, ALL, Any),
    p!("PC", "Place", GameInfo, SimpleText, false, ALL, Any),
    p!("PL", "Player to play", Setup, Color, false, ALL, Any),
    p!("PM", "Print move mode", None, Number, true, V4, Any),
    p!("PW", "Player White", GameInfo, SimpleText, false, ALL, Any),
    p!("RE", "Result", GameInfo, SimpleText, false, ALL, Any),
    p!("RG", "Region", None, ListOfPoint, false, V1 | V2 | V3, Go),
    p!("RO", "Round", GameInfo, SimpleText, false, ALL, Any),
    p!("RU", "Rules", GameInfo, SimpleText, false, V34, Any),
    p!(
        "SC",
        "Secure stones",
        None,
        ListOfPoint,
        false,
        V1 | V2 | V3,
        Go
    ),
    p!(
        "SE",
        "Markup (LOA) / self-test moves (FF[3])",
        None,
        ListOfPoint,
        false,
        V3 | V4,
        Any
    ),
    p!("SI", "Sigma", None, Double, false, V3, Any),
    p!("SL", "Selected", None, ListOfPoint, false, ALL, Any),
    p!("SO", "Source", GameInfo, SimpleText, false, ALL, Any),
    p!("SQ", "Square", None, ListOfPoint, false, V4, Any),
    p!("ST", "Style", Root, Number, false, V4, Any),
    p!("SU", "Setup type", GameInfo, SimpleText, false, V4, Loa),
    p!("SZ", "Size", Root, Size, false, ALL, Any),
    p!("TB", "Territory Black", None, EListOfPoint, false, ALL, Go),
    p!("TC", "Territory count", None, Number, false, V3, Go),
    p!("TE", "Tesuji", Move, Double, false, ALL, Any),
    p!("TM", "Timelimit", GameInfo, Real, false, ALL, Any),
    p!("TR", "Triangle", None, ListOfPoint, false, V34, Any),
    p!("TW", "Territory White", None, EListOfPoint, false, ALL, Go),
    p!("UC", "Unclear position", None, Double, false, V34, Any),
    p!("US", "User", GameInfo, SimpleText, false, ALL, Any),
    p!("V", "Value", None, Real, false, ALL, Any),
    p!("VW", "View", None, EListOfPoint, true, ALL, Any),
    p!("W", "White", Move, Move, false, ALL, Any),
    p!("WL", "White time left", Move, Real, false, ALL, Any),
    p!("WR", "White rank", GameInfo, SimpleText, false, ALL, Any),
    p!(
        "WS",
        "White species",
        GameInfo,
        Number,
        false,
        V1 | V2 | V3,
        Any
    ),
    p!("WT", "White team", GameInfo, SimpleText, false, V34, Any),
];

/// Index of a property in [`PROPERTIES`].
pub type KnownId = u16;

const _: () = assert!(PROPERTIES.len() < 255);

/// Marks an unknown identifier in [`SHORT`].
pub(crate) const NO: u8 = u8::MAX;

/// Registry index of every one- and two-letter identifier (`NO` when
/// unknown): `SHORT[a - 'A'][26]` for one letter, `SHORT[a - 'A'][b - 'A']` for two.
pub(crate) static SHORT: [[u8; 27]; 26] = {
    let mut t = [[NO; 27]; 26];
    let mut i = 0;
    while i < PROPERTIES.len() {
        let b = PROPERTIES[i].ident.as_bytes();
        if b.len() == 1 {
            t[(b[0] - b'A') as usize][26] = i as u8;
        } else if b.len() == 2 {
            t[(b[0] - b'A') as usize][(b[1] - b'A') as usize] = i as u8;
        }
        i += 1;
    }
    t
};

/// Looks up an FF\[4\] identifier (upper case) in the registry.
#[inline]
pub fn lookup(ident: &[u8]) -> Option<KnownId> {
    let k = match *ident {
        [a] if a.is_ascii_uppercase() => SHORT[(a - b'A') as usize][26],
        [a, b] if a.is_ascii_uppercase() && b.is_ascii_uppercase() => {
            SHORT[(a - b'A') as usize][(b - b'A') as usize]
        }
        [_] | [_, _] => NO,
        _ => {
            return PROPERTIES
                .binary_search_by(|p| p.ident.as_bytes().cmp(ident))
                .ok()
                .map(|i| i as KnownId);
        }
    };
    (k != NO).then_some(k as KnownId)
}

/// The registry entry of a known identifier.
pub fn info(id: KnownId) -> &'static PropInfo {
    &PROPERTIES[id as usize]
}

/// Looks up an identifier and returns its entry.
pub fn info_of(ident: &str) -> Option<&'static PropInfo> {
    lookup(ident.as_bytes()).map(info)
}

const fn idx(ident: &str) -> KnownId {
    let mut i = 0;
    while i < PROPERTIES.len() {
        let a = PROPERTIES[i].ident.as_bytes();
        let b = ident.as_bytes();
        if a.len() == b.len() {
            let mut j = 0;
            let mut same = true;
            while j < a.len() {
                if a[j] != b[j] {
                    same = false;
                }
                j += 1;
            }
            if same {
                return i as KnownId;
            }
        }
        i += 1;
    }
    panic!("unknown property in registry constant")
}

/// Registry indices of properties the library refers to by name.
#[allow(missing_docs)]
pub mod id {
    use super::{KnownId, idx};
    pub const AB: KnownId = idx("AB");
    pub const AE: KnownId = idx("AE");
    pub const AP: KnownId = idx("AP");
    pub const AR: KnownId = idx("AR");
    pub const AW: KnownId = idx("AW");
    pub const B: KnownId = idx("B");
    pub const BL: KnownId = idx("BL");
    pub const BM: KnownId = idx("BM");
    pub const C: KnownId = idx("C");
    pub const CA: KnownId = idx("CA");
    pub const CR: KnownId = idx("CR");
    pub const DD: KnownId = idx("DD");
    pub const DM: KnownId = idx("DM");
    pub const DO: KnownId = idx("DO");
    pub const DT: KnownId = idx("DT");
    pub const FF: KnownId = idx("FF");
    pub const FG: KnownId = idx("FG");
    pub const GB: KnownId = idx("GB");
    pub const GC: KnownId = idx("GC");
    pub const GM: KnownId = idx("GM");
    pub const GW: KnownId = idx("GW");
    pub const HA: KnownId = idx("HA");
    pub const IT: KnownId = idx("IT");
    pub const KM: KnownId = idx("KM");
    pub const KO: KnownId = idx("KO");
    pub const LB: KnownId = idx("LB");
    pub const LN: KnownId = idx("LN");
    pub const MA: KnownId = idx("MA");
    pub const MN: KnownId = idx("MN");
    pub const N: KnownId = idx("N");
    pub const OB: KnownId = idx("OB");
    pub const OW: KnownId = idx("OW");
    pub const PL: KnownId = idx("PL");
    pub const PM: KnownId = idx("PM");
    pub const RE: KnownId = idx("RE");
    pub const SL: KnownId = idx("SL");
    pub const SQ: KnownId = idx("SQ");
    pub const ST: KnownId = idx("ST");
    pub const SZ: KnownId = idx("SZ");
    pub const TB: KnownId = idx("TB");
    pub const TE: KnownId = idx("TE");
    pub const TM: KnownId = idx("TM");
    pub const TR: KnownId = idx("TR");
    pub const TW: KnownId = idx("TW");
    pub const UC: KnownId = idx("UC");
    pub const VW: KnownId = idx("VW");
    pub const W: KnownId = idx("W");
    pub const WL: KnownId = idx("WL");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_and_unique() {
        for w in PROPERTIES.windows(2) {
            assert!(
                w[0].ident < w[1].ident,
                "{} before {}",
                w[0].ident,
                w[1].ident
            );
        }
    }

    #[test]
    fn every_ff4_property_of_document_001() {
        // The table of contents of spec document 001.
        let ff4 = "B KO MN W AB AE AW PL C DM GB GW HO N UC V BM DO IT TE AR CR DD LB LN MA SL SQ TR \
                   AP CA FF GM ST SZ AN BR BT CP DT EV GN GC ON OT PB PC PW RE RO RU SO TM US WR WT \
                   BL OB OW WL FG PM VW HA KM TB TW";
        for id in ff4.split_whitespace() {
            let p = info_of(id).unwrap_or_else(|| panic!("{id} missing"));
            assert!(p.in_ff4(), "{id} should be FF[4]");
        }
        for id in "CH EL EX BS WS L M SC RG ID".split_whitespace() {
            let p = info_of(id).unwrap();
            assert!(p.is_legacy(), "{id} should be legacy");
        }
        assert!(info_of("VW").unwrap().inherit);
        assert_eq!(info_of("SZ").unwrap().kind, PropKind::Root);
        assert_eq!(info_of("KM").unwrap().value, ValueType::Real);
        assert!(info_of("MULTIGOGM").unwrap().is_private());
        assert_eq!(lookup(b"B"), Some(id::B));
        assert_eq!(lookup(b"ZZ"), None);
    }
}
