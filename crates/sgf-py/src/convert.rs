//! Property values between SGF and Python.
//!
//! Out (SGF → Python), by the property's value type:
//! none → `True`; number/double → `int`; real → `float`; color → `"B"`/`"W"`;
//! text and simple text → `str`; point/stone → `(col, row)`; move →
//! `(col, row)` or `None` for a pass; point lists → `list` of `(col, row)`
//! (rectangles expanded); `AR`/`LN` → `list` of `((c, r), (c, r))`; `LB` →
//! `list` of `((c, r), str)`; `AP` → `(str, str)`; `SZ` → `int` or
//! `(cols, rows)`; `FG` → `True` or `(int, str)`; unknown properties →
//! `list` of `str`. A value that does not parse as its type is returned as
//! its text (`str`), so reading never fails.
//!
//! In (Python → SGF) the same shapes are accepted, and a `str` is always
//! taken as the value's text (escaped for you), except for colours.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};

use sgf_core::value;
use sgf_core::{Color, Document, NodeId, Point, Value, ValueType};
use sgf_go::{BoardSize, Move};

use crate::errors::EditError;

/// What `__reduce__` returns: the function to call and its arguments.
pub type Reduced<'py, A> = (Bound<'py, PyAny>, A);

/// `(col, row)`.
pub fn point_py(py: Python<'_>, p: Point) -> PyResult<Bound<'_, PyAny>> {
    Ok((p.x, p.y).into_pyobject(py)?.into_any())
}

/// `(col, row)` or `None` for a pass.
pub fn move_py(py: Python<'_>, m: Move) -> PyResult<Bound<'_, PyAny>> {
    match m {
        Move::Pass => Ok(py.None().into_bound(py)),
        Move::Play(p) => point_py(py, p),
    }
}

/// `"B"` or `"W"`.
pub fn color_str(c: Color) -> &'static str {
    c.as_str()
}

/// The board size of a node's game.
pub fn size_of(doc: &Document, node: NodeId) -> BoardSize {
    sgf_go::coords::board_size(&doc.node(doc.root_of(node))).0
}

fn text_py<'py>(py: Python<'py>, v: &Value<'_>) -> Bound<'py, PyAny> {
    PyString::new(py, &v.text()).into_any()
}

fn points_of_value(v: &Value<'_>) -> Option<Vec<Point>> {
    if let Some(p) = v.point() {
        return Some(vec![p]);
    }
    let (a, b) = v.rect()?;
    Some(value::rect_points(a, b).collect())
}

fn one_value<'py>(
    py: Python<'py>,
    v: &Value<'_>,
    vt: ValueType,
    size: BoardSize,
) -> PyResult<Bound<'py, PyAny>> {
    let fallback = || Ok(text_py(py, v));
    match vt {
        ValueType::None => Ok(PyBool::new(py, true).to_owned().into_any()),
        ValueType::Number => match v.number() {
            Some(n) => Ok(n.into_pyobject(py)?.into_any()),
            None => fallback(),
        },
        ValueType::Double => match v.double() {
            Some(n) => Ok(n.into_pyobject(py)?.into_any()),
            None => fallback(),
        },
        ValueType::Real => match v.real() {
            Some(n) => Ok(n.into_pyobject(py)?.into_any()),
            None => fallback(),
        },
        ValueType::Color => match v.color() {
            Some(c) => Ok(PyString::new(py, color_str(c)).into_any()),
            None => fallback(),
        },
        ValueType::SimpleText | ValueType::Text => fallback(),
        ValueType::Point | ValueType::Stone => match v.point() {
            Some(p) => point_py(py, p),
            None => fallback(),
        },
        ValueType::Move => match sgf_go::parse_move(v.raw(), size).mv {
            Some(m) => move_py(py, m),
            None => fallback(),
        },
        ValueType::TextText => match v.composed() {
            Some((a, b)) => Ok((a.as_ref(), b.as_ref()).into_pyobject(py)?.into_any()),
            None => Ok((v.text().as_ref(), "").into_pyobject(py)?.into_any()),
        },
        ValueType::Size => {
            if let Some((a, b)) = v.composed_raw() {
                if let (Some(c), Some(r)) = (value::parse_number(a), value::parse_number(b)) {
                    return Ok((c, r).into_pyobject(py)?.into_any());
                }
                return fallback();
            }
            match v.number() {
                Some(n) => Ok(n.into_pyobject(py)?.into_any()),
                None => fallback(),
            }
        }
        ValueType::Figure => {
            if v.is_empty() {
                return Ok(PyBool::new(py, true).to_owned().into_any());
            }
            match (v.composed_raw(), v.composed()) {
                (Some((a, _)), Some((_, b))) => match value::parse_number(a) {
                    Some(n) => Ok((n, b.as_ref()).into_pyobject(py)?.into_any()),
                    None => fallback(),
                },
                _ => fallback(),
            }
        }
        ValueType::ListOfPointPoint => match v.composed_raw() {
            Some((a, b)) => match (value::parse_point(a), value::parse_point(b)) {
                (Some(a), Some(b)) => Ok((point_py(py, a)?, point_py(py, b)?)
                    .into_pyobject(py)?
                    .into_any()),
                _ => fallback(),
            },
            None => fallback(),
        },
        ValueType::ListOfPointText => match (v.composed_raw(), v.composed()) {
            (Some((a, _)), Some((_, t))) => match value::parse_point(a) {
                Some(p) => Ok((point_py(py, p)?, t.as_ref()).into_pyobject(py)?.into_any()),
                None => fallback(),
            },
            _ => fallback(),
        },
        // Lists are handled by the caller; an unknown property's value is its decoded text.
        ValueType::ListOfPoint
        | ValueType::EListOfPoint
        | ValueType::ListOfStone
        | ValueType::Unknown => Ok(PyString::new(py, &v.decoded()).into_any()),
    }
}

/// The typed value of property `ident` of `node`, `None` when absent.
pub fn typed_value<'py>(
    py: Python<'py>,
    doc: &Document,
    node: NodeId,
    ident: &str,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let n = doc.node(node);
    if !n.has(ident) {
        return Ok(None);
    }
    let vt = Document::value_type_of(ident);
    let values: Vec<Value<'_>> = n.values(ident).collect();
    let size = if matches!(vt, ValueType::Move) {
        size_of(doc, node)
    } else {
        BoardSize::default()
    };
    let out = match vt {
        ValueType::ListOfPoint | ValueType::EListOfPoint | ValueType::ListOfStone => {
            let list = PyList::empty(py);
            for v in &values {
                if v.is_empty() {
                    continue;
                }
                match points_of_value(v) {
                    Some(ps) => {
                        for p in ps {
                            list.append(point_py(py, p)?)?;
                        }
                    }
                    None => list.append(text_py(py, v))?,
                }
            }
            list.into_any()
        }
        ValueType::ListOfPointPoint | ValueType::ListOfPointText | ValueType::Unknown => {
            let list = PyList::empty(py);
            for v in &values {
                list.append(one_value(py, v, vt, size)?)?;
            }
            list.into_any()
        }
        _ => match values.first() {
            Some(v) => one_value(py, v, vt, size)?,
            // A property without values (`B` with no `[]`).
            None if vt == ValueType::None => PyBool::new(py, true).to_owned().into_any(),
            None => py.None().into_bound(py),
        },
    };
    Ok(Some(out))
}

// ---------------------------------------------------------------- Python → SGF

fn bad_value(ident: &str, vt: ValueType, what: &str) -> PyErr {
    EditError::new_err(format!(
        "{ident}: {what} (the property takes {})",
        vt.as_str()
    ))
}

/// `repr(obj)`, shortened, for the "got …" part of a message.
pub fn describe(obj: &Bound<'_, PyAny>) -> String {
    let r = obj
        .repr()
        .map_or_else(|_| "?".to_string(), |r| r.to_string());
    if r.chars().count() > 60 {
        r.chars().take(57).collect::<String>() + "…"
    } else {
        r
    }
}

/// An int argument (an `int`, or anything with `__index__` such as a
/// NumPy integer; not a `bool`, not a `float`).
fn int_of(obj: &Bound<'_, PyAny>) -> Option<i64> {
    if obj.is_instance_of::<PyBool>() || obj.is_instance_of::<PyFloat>() {
        return None;
    }
    obj.extract::<i64>().ok()
}

/// A point argument: a tuple or list of two ints `(col, row)`, checked
/// only for its shape (see [`point_on`] for the board).
pub fn point_arg(obj: &Bound<'_, PyAny>) -> PyResult<(i64, i64)> {
    let bad = || {
        PyTypeError::new_err(format!(
            "expected a point (col, row) of two ints, got {}",
            describe(obj)
        ))
    };
    if !(obj.is_instance_of::<PyTuple>() || obj.is_instance_of::<PyList>()) || obj.len()? != 2 {
        return Err(bad());
    }
    match (int_of(&obj.get_item(0)?), int_of(&obj.get_item(1)?)) {
        (Some(x), Some(y)) => Ok((x, y)),
        _ => Err(bad()),
    }
}

/// A point argument on a board of `size`: `ValueError` off the board.
pub fn point_on(obj: &Bound<'_, PyAny>, size: BoardSize) -> PyResult<Point> {
    let (x, y) = point_arg(obj)?;
    let on = (0..size.cols as i64).contains(&x) && (0..size.rows as i64).contains(&y);
    if !on {
        return Err(PyValueError::new_err(format!(
            "expected a point of the {size} board (col 0-{}, row 0-{}), got ({x}, {y})",
            size.cols as i64 - 1,
            size.rows as i64 - 1
        )));
    }
    Ok(Point::new(x as u8, y as u8))
}

/// A move argument: `None` (a pass) or a point of the board.
pub fn move_on(obj: &Bound<'_, PyAny>, size: BoardSize) -> PyResult<Move> {
    if obj.is_none() {
        Ok(Move::Pass)
    } else {
        point_on(obj, size).map(Move::Play)
    }
}

/// A board size argument: an int from 1 to 52 (square) or `(cols, rows)`.
pub fn size_arg(obj: &Bound<'_, PyAny>) -> PyResult<BoardSize> {
    let bad = || {
        PyValueError::new_err(format!(
            "expected a board size: an int from 1 to 52 or (cols, rows), got {}",
            describe(obj)
        ))
    };
    let ok = |n: i64| (1..=sgf_go::coords::MAX_SIZE as i64).contains(&n);
    if let Some(n) = int_of(obj) {
        return if ok(n) {
            Ok(BoardSize::square(n as u8))
        } else {
            Err(bad())
        };
    }
    if (obj.is_instance_of::<PyTuple>() || obj.is_instance_of::<PyList>())
        && obj.len()? == 2
        && let (Some(c), Some(r)) = (int_of(&obj.get_item(0)?), int_of(&obj.get_item(1)?))
        && ok(c)
        && ok(r)
    {
        return Ok(BoardSize {
            cols: c as u8,
            rows: r as u8,
        });
    }
    Err(bad())
}

/// A point `(col, row)` as its two SGF letters.
pub fn point_raw(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    let (x, y) = point_arg(obj)?;
    if !(0..52).contains(&x) || !(0..52).contains(&y) {
        return Err(EditError::new_err(format!(
            "expected a point with col and row from 0 to 51 (what SGF can write), got ({x}, {y})"
        )));
    }
    Ok(Point::new(x as u8, y as u8).to_string())
}

/// A colour from `"B"`, `"W"`, `"b"`, `"w"`, `"black"`, `"white"`.
pub fn color_of(obj: &Bound<'_, PyAny>) -> PyResult<Color> {
    let bad = || format!("expected a colour \"B\" or \"W\", got {}", describe(obj));
    let s: String = obj.extract().map_err(|_| PyTypeError::new_err(bad()))?;
    match s.to_ascii_lowercase().as_str() {
        "b" | "black" => Ok(Color::Black),
        "w" | "white" => Ok(Color::White),
        _ => Err(EditError::new_err(bad())),
    }
}

/// A `str` argument named `what`.
pub fn str_arg<'a>(obj: &'a Bound<'_, PyAny>, what: &str) -> PyResult<std::borrow::Cow<'a, str>> {
    obj.cast::<PyString>()
        .map_err(|_| {
            PyTypeError::new_err(format!("expected {what} (a str), got {}", describe(obj)))
        })?
        .to_cow()
}

fn escape(s: &str) -> String {
    sgf_core::text::escape(s, false)
}

fn is_int(obj: &Bound<'_, PyAny>) -> bool {
    obj.is_instance_of::<PyInt>() && !obj.is_instance_of::<PyBool>()
}

fn number_raw(obj: &Bound<'_, PyAny>, real: bool) -> Option<String> {
    if is_int(obj) {
        return obj.extract::<i64>().ok().map(|n| n.to_string());
    }
    if real && obj.is_instance_of::<PyFloat>() {
        let f: f64 = obj.extract().ok()?;
        return f.is_finite().then(|| format!("{f}"));
    }
    None
}

fn element_raw(ident: &str, obj: &Bound<'_, PyAny>, vt: ValueType) -> PyResult<String> {
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(escape(&s.to_cow()?));
    }
    match vt {
        ValueType::ListOfPoint | ValueType::EListOfPoint | ValueType::ListOfStone => point_raw(obj),
        ValueType::ListOfPointPoint => {
            let (a, b): (Bound<'_, PyAny>, Bound<'_, PyAny>) = obj.extract().map_err(|_| {
                bad_value(ident, vt, "each value is a ((col, row), (col, row)) pair")
            })?;
            Ok(format!("{}:{}", point_raw(&a)?, point_raw(&b)?))
        }
        ValueType::ListOfPointText => {
            let (a, t): (Bound<'_, PyAny>, String) = obj
                .extract()
                .map_err(|_| bad_value(ident, vt, "each value is a ((col, row), text) pair"))?;
            Ok(format!("{}:{}", point_raw(&a)?, escape(&t)))
        }
        _ => {
            let s = obj.str()?.to_string();
            Ok(escape(&s))
        }
    }
}

/// The raw SGF values for setting `ident` to `obj`.
pub fn raws_for(ident: &str, obj: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let vt = Document::value_type_of(ident);
    // A str is the value's text, whatever the type (lists: one value);
    // colours are checked.
    if let Ok(s) = obj.cast::<PyString>()
        && vt != ValueType::Color
    {
        return Ok(vec![escape(&s.to_cow()?)]);
    }
    let list_like = obj.is_instance_of::<PyList>()
        || obj.hasattr("__iter__")? && !obj.is_instance_of::<PyTuple>();
    match vt {
        ValueType::None => {
            if obj.is_none() || obj.is_truthy()? {
                Ok(vec![String::new()])
            } else {
                Err(bad_value(ident, vt, "set it to True (or remove it)"))
            }
        }
        ValueType::Number | ValueType::Double => number_raw(obj, false)
            .map(|s| vec![s])
            .ok_or_else(|| bad_value(ident, vt, "expected an int")),
        ValueType::Real => number_raw(obj, true)
            .map(|s| vec![s])
            .ok_or_else(|| bad_value(ident, vt, "expected a float or int")),
        ValueType::Color => Ok(vec![color_of(obj)?.as_str().to_string()]),
        ValueType::SimpleText | ValueType::Text => Ok(vec![escape(&obj.str()?.to_string())]),
        ValueType::Point | ValueType::Stone => Ok(vec![point_raw(obj)?]),
        ValueType::Move => {
            if obj.is_none() {
                Ok(vec![String::new()])
            } else {
                Ok(vec![point_raw(obj)?])
            }
        }
        ValueType::TextText => {
            let (a, b): (String, String) = obj
                .extract()
                .map_err(|_| bad_value(ident, vt, "expected a (str, str) tuple"))?;
            Ok(vec![format!(
                "{}:{}",
                sgf_core::text::escape(&a, true),
                escape(&b)
            )])
        }
        ValueType::Size => {
            if let Some(n) = number_raw(obj, false) {
                return Ok(vec![n]);
            }
            let (c, r): (i64, i64) = obj
                .extract()
                .map_err(|_| bad_value(ident, vt, "expected an int or (cols, rows)"))?;
            Ok(vec![if c == r {
                c.to_string()
            } else {
                format!("{c}:{r}")
            }])
        }
        ValueType::Figure => {
            if obj.is_none() || obj.is_instance_of::<PyBool>() {
                return Ok(vec![String::new()]);
            }
            let (n, t): (i64, String) = obj
                .extract()
                .map_err(|_| bad_value(ident, vt, "expected True or (int, str)"))?;
            Ok(vec![format!("{n}:{}", escape(&t))])
        }
        ValueType::ListOfPoint
        | ValueType::EListOfPoint
        | ValueType::ListOfStone
        | ValueType::ListOfPointPoint
        | ValueType::ListOfPointText
        | ValueType::Unknown => {
            let single_point = obj.is_instance_of::<PyTuple>()
                && matches!(
                    vt,
                    ValueType::ListOfPoint | ValueType::EListOfPoint | ValueType::ListOfStone
                )
                && obj.extract::<(i64, i64)>().is_ok();
            if single_point {
                return Ok(vec![point_raw(obj)?]);
            }
            if !list_like {
                if vt == ValueType::Unknown {
                    return Ok(vec![escape(&obj.str()?.to_string())]);
                }
                return Err(bad_value(ident, vt, "expected a list"));
            }
            let mut out = Vec::new();
            for item in obj.try_iter()? {
                out.push(element_raw(ident, &item?, vt)?);
            }
            if out.is_empty() && vt == ValueType::EListOfPoint {
                out.push(String::new());
            }
            if out.is_empty() {
                return Err(bad_value(
                    ident,
                    vt,
                    "an empty list (use remove() to delete the property)",
                ));
            }
            Ok(out)
        }
    }
}

/// Our result shapes are at most four levels deep (a dict of lists of
/// dicts of scalars), so this recursion is bounded by them, not by input.
pub(crate) fn to_py(py: Python<'_>, v: &serde_json::Value) -> PyResult<Py<PyAny>> {
    Ok(match v {
        serde_json::Value::Null => py.None(),
        serde_json::Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
        serde_json::Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any().unbind(),
            (_, Some(u)) => u.into_pyobject(py)?.into_any().unbind(),
            _ => n
                .as_f64()
                .unwrap_or(0.0)
                .into_pyobject(py)?
                .into_any()
                .unbind(),
        },
        serde_json::Value::String(s) => s.into_pyobject(py)?.into_any().unbind(),
        serde_json::Value::Array(a) => {
            let l = PyList::empty(py);
            for x in a {
                l.append(to_py(py, x)?)?;
            }
            l.into_any().unbind()
        }
        serde_json::Value::Object(o) => {
            let d = PyDict::new(py);
            for (k, x) in o {
                d.set_item(k, to_py(py, x)?)?;
            }
            d.into_any().unbind()
        }
    })
}
