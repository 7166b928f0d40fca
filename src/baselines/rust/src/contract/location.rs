//! Where an event sits in a request, and the JSON paths built from it (only when a problem is reported).

/// The whole body or item `index` of a batch, and whether inside a classic payload's inner document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Location {
    index: Option<usize>,
    inner: bool,
}

impl Location {
    /// A body that is one event.
    pub fn whole_body() -> Location {
        Location { index: None, inner: false }
    }

    /// The index-th event of a batch (for NDJSON: of the lines that hold one).
    pub fn item(index: usize) -> Location {
        Location { index: Some(index), inner: false }
    }

    /// The same event's classic inner document (`data`).
    pub fn inner(self) -> Location {
        Location { index: self.index, inner: true }
    }

    /// The path of the event object itself: `$`, `$[3]`, `$.data` or `$[3].data`.
    pub fn root(self) -> String {
        let mut root = match self.index {
            Some(i) => format!("$[{}]", i),
            None => String::from("$"),
        };
        if self.inner {
            root.push_str(".data");
        }
        root
    }

    /// The path of a member of the event object.
    pub fn member(self, name: &str) -> String {
        let mut path = self.root();
        push_member(&mut path, name);
        path
    }
}

/// Appends a member as a path step: `.name`, or `['odd name']` for names the dot notation would misread (the rule
/// System.Text.Json follows).
pub(crate) fn push_member(path: &mut String, name: &str) {
    const ODD: &[char] = &[
        '.', '\'', '/', '"', '[', ']', '(', ')', '\t', '\n', '\r', '\u{c}', '\u{8}', '\\', ' ', '\u{85}', '\u{2028}',
        '\u{2029}',
    ];
    if name.is_empty() || name.contains(ODD) {
        path.push_str("['");
        path.push_str(name);
        path.push_str("']");
    } else {
        path.push('.');
        path.push_str(name);
    }
}
