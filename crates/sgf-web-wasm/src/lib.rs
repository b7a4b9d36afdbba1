//! # sgf-web-wasm: the viewer's session in the page
//!
//! The static viewer is `qipu view`'s page over another transport: its
//! requests go, instead of to the server, to a [`Viewer`] in the page —
//! sgf-web's session and API ([`sgf_web::local::Local`]) compiled to
//! WebAssembly. One call takes a request as the page sends it to the
//! server (a path with its query, a body) and gives the answer as the
//! server gives it (a status, a type, a file name for a download, the
//! bytes); the page's `api.js` makes a `Response` of it.

use sgf_web::local::{Local, Reply};
use wasm_bindgen::prelude::*;

/// The records the page has open.
#[wasm_bindgen]
#[derive(Default)]
pub struct Viewer {
    local: Local,
}

/// An answer to [`Viewer::request`].
#[wasm_bindgen]
pub struct Answer {
    reply: Reply,
}

#[wasm_bindgen]
impl Answer {
    /// The HTTP status it stands for.
    #[wasm_bindgen(getter)]
    pub fn status(&self) -> u16 {
        self.reply.status
    }

    /// The `Content-Type`.
    #[wasm_bindgen(getter, js_name = contentType)]
    pub fn content_type(&self) -> String {
        self.reply.content_type.to_string()
    }

    /// The name to save a download as.
    #[wasm_bindgen(getter)]
    pub fn filename(&self) -> Option<String> {
        self.reply.filename.clone()
    }

    /// The bytes (JSON for the API's answers).
    #[wasm_bindgen(getter)]
    pub fn body(&self) -> Vec<u8> {
        self.reply.body.clone()
    }
}

#[wasm_bindgen]
impl Viewer {
    /// No record open.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Viewer {
        Viewer {
            local: Local::new(),
        }
    }

    /// Answers a request: `url` the path and query the page asks the
    /// server for (`/api/nav`, `/api/state?session=1`), `body` what it
    /// would POST (JSON, or a file's bytes for `/api/upload`; empty for a
    /// GET).
    pub fn request(&mut self, url: &str, body: &[u8]) -> Answer {
        Answer {
            reply: self.local.request(url, body),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_is_answered_as_the_server_answers() {
        let mut v = Viewer::new();
        let a = v.request("/api/start", b"{}");
        assert_eq!(a.status(), 200);
        assert_eq!(a.content_type(), "application/json");
        let st = String::from_utf8(a.body()).unwrap();
        assert!(st.contains("\"session\":1"), "{st}");
        let a = v.request("/api/export?session=1&format=sgf", b"");
        assert_eq!(a.status(), 200);
        assert_eq!(a.filename().as_deref(), Some("qipu-example.sgf"));
        assert!(a.body().starts_with(b"(;"));
        let a = v.request("/api/nav", b"{\"session\": 9, \"action\": \"next\"}");
        assert_eq!(a.status(), 400);
        assert!(String::from_utf8(a.body()).unwrap().contains("no_session"));
    }
}
