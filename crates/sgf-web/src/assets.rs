//! The page's files, embedded in the binary: the HTML, the style sheet,
//! the translations and the scripts (ES modules, `app.js` the entry).
//!
//! A module imports another by a relative URL (`./state.js`), which the
//! browser asks for without the page's token; the page's import map
//! (written here, from [`SCRIPTS`]) adds it, as the guard wants.

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::App;

static INDEX: &str = include_str!("../assets/index.html");
static APP_CSS: &str = include_str!("../assets/app.css");

/// The page's scripts, each an ES module served as `/NAME`.
pub(crate) static SCRIPTS: [(&str, &str); 19] = [
    ("app.js", include_str!("../assets/app.js")),
    ("api.js", include_str!("../assets/api.js")),
    ("state.js", include_str!("../assets/state.js")),
    ("dom.js", include_str!("../assets/dom.js")),
    ("i18n.js", include_str!("../assets/i18n.js")),
    ("letters.js", include_str!("../assets/letters.js")),
    ("actions.js", include_str!("../assets/actions.js")),
    ("board.js", include_str!("../assets/board.js")),
    ("tree.js", include_str!("../assets/tree.js")),
    ("panels.js", include_str!("../assets/panels.js")),
    ("engine.js", include_str!("../assets/engine.js")),
    ("games.js", include_str!("../assets/games.js")),
    ("commands.js", include_str!("../assets/commands.js")),
    ("search.js", include_str!("../assets/search.js")),
    ("menu.js", include_str!("../assets/menu.js")),
    ("find.js", include_str!("../assets/find.js")),
    ("transform.js", include_str!("../assets/transform.js")),
    ("markdown.js", include_str!("../assets/markdown.js")),
    ("resize.js", include_str!("../assets/resize.js")),
];

/// The page's translations (English is the key), one file a language.
static I18N: [(&str, &str); 11] = [
    ("zh-Hans", include_str!("../assets/i18n/zh-Hans.json")),
    ("zh-Hant", include_str!("../assets/i18n/zh-Hant.json")),
    ("ja", include_str!("../assets/i18n/ja.json")),
    ("ko", include_str!("../assets/i18n/ko.json")),
    ("de", include_str!("../assets/i18n/de.json")),
    ("fr", include_str!("../assets/i18n/fr.json")),
    ("es", include_str!("../assets/i18n/es.json")),
    ("ru", include_str!("../assets/i18n/ru.json")),
    ("pt-BR", include_str!("../assets/i18n/pt-BR.json")),
    ("it", include_str!("../assets/i18n/it.json")),
    ("tr", include_str!("../assets/i18n/tr.json")),
];

/// The routes of the page's files, added to `api`.
pub(crate) fn routes(api: Router<Arc<App>>) -> Router<Arc<App>> {
    let mut r = api
        .route("/", get(index))
        .route("/favicon.ico", get(favicon))
        .route("/app.css", get(app_css))
        .route("/i18n/{file}", get(i18n));
    for (name, _) in SCRIPTS {
        r = r.route(&format!("/{name}"), get(script));
    }
    r
}

/// The import map that gives every module's URL the token.
fn import_map(token: &str) -> String {
    let entries: Vec<String> = SCRIPTS
        .iter()
        .map(|(name, _)| format!("\"/{name}\": \"/{name}?t={token}\""))
        .collect();
    format!("{{\"imports\": {{{}}}}}", entries.join(", "))
}

/// The page: its import map (the one inline script, allowed by a nonce
/// new for each answer) and the token (in a `<meta>` that api.js reads).
async fn index(State(app): State<Arc<App>>) -> Response {
    let nonce = crate::random_token();
    let html = INDEX
        .replace("{{IMPORTMAP}}", &import_map(&app.token))
        .replace("{{NONCE}}", &nonce)
        .replace("{{TOKEN}}", &app.token);
    let policy = HeaderValue::from_str(&crate::page_policy(&nonce))
        .unwrap_or_else(|_| HeaderValue::from_static("default-src 'none'"));
    (
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            ),
            (header::CONTENT_SECURITY_POLICY, policy),
        ],
        html,
    )
        .into_response()
}

async fn script(uri: Uri) -> Response {
    let name = uri.path().trim_start_matches('/');
    match SCRIPTS.iter().find(|(n, _)| *n == name) {
        Some((_, js)) => (
            [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
            *js,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "not found").into_response(),
    }
}

async fn i18n(Path(file): Path<String>) -> Response {
    let lang = file.strip_suffix(".json").unwrap_or(&file);
    match I18N.iter().find(|(l, _)| *l == lang) {
        Some((_, json)) => (
            [(header::CONTENT_TYPE, "application/json; charset=utf-8")],
            *json,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "no such language").into_response(),
    }
}

async fn app_css() -> Response {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], APP_CSS).into_response()
}

/// The page's icon: a 32×32 PNG in an ICO (made for Qipu: two stones on
/// a corner of a wooden board).
static FAVICON: &[u8] = include_bytes!("../assets/favicon.ico");

/// `/favicon.ico?t=TOKEN`: the page names it with its token, as every
/// other file (a page elsewhere could otherwise find a running viewer by
/// loading its icon).
async fn favicon() -> Response {
    ([(header::CONTENT_TYPE, "image/x-icon")], FAVICON).into_response()
}
