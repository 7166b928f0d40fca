//! The status page, GET / and GET /status: the .NET pages' layout and facts (src/Ingest.Hosting/Pages), as the Go
//! baselines render them (src/baselines/go/service/templates) — configuration, counters and, on the back-end, the
//! last events, whatever a client sent rendered as escaped text.

use crate::config::{Config, Role, STACK};
use crate::contract::{Event, EventType};

/// Names the view engine on the page.
pub const ENGINE: &str = "Rust std::fmt";

/// The facts that do not change: title and configuration, made once.
pub struct PageBase {
    title: &'static str,
    configuration: Vec<(String, String)>,
    recent_events: bool,
}

impl PageBase {
    pub fn new(c: &Config) -> PageBase {
        let (title, role) = match c.role {
            Role::FrontEnd => ("Ingest front-end", "FrontEnd"),
            Role::BackEnd => ("Ingest back-end", "BackEnd"),
        };
        let mut configuration = vec![(String::from("role"), String::from(role)), (String::from("api"), String::from(STACK))];
        let line = c.describe("");
        let line = line.split_once(": ").map_or(line.as_str(), |(_, rest)| rest);
        for pair in line.split_whitespace() {
            if let Some((name, value)) = pair.split_once('=') {
                if name != "listen" {
                    configuration.push((name.to_owned(), value.to_owned()));
                }
            }
        }
        PageBase { title, configuration, recent_events: c.role == Role::BackEnd }
    }

    /// The page with these counters and (back-end) events, newest first.
    pub fn render(&self, counters: &[(String, String)], events: &[Event<'_>]) -> String {
        let mut html = String::with_capacity(4096);
        let title = escape(self.title);
        html.push_str(&format!(
            "\n<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{} — status</title>\n{}</head>\n<body>\n<header>\n\
<h1>{}</h1>\n<p>Status page rendered by <span data-fact=\"engine\">{}</span></p>\n</header>\n<main>\n",
            title,
            STYLE,
            title,
            escape(ENGINE)
        ));
        html.push_str("\n<section id=\"configuration\">\n<h2>Configuration</h2>\n<table>\n");
        for (name, value) in &self.configuration {
            let name = escape(name);
            html.push_str(&format!(
                "\n<tr data-fact=\"config.{}\"><th>{}</th><td>{}</td></tr>\n",
                name,
                name,
                escape(value)
            ));
        }
        html.push_str("\n</table>\n</section>\n<section id=\"counters\">\n<h2>Counters</h2>\n<table>\n");
        for (name, value) in counters {
            let name = escape(name);
            html.push_str(&format!("\n<tr data-fact=\"{}\"><th>{}</th><td>{}</td></tr>\n", name, name, escape(value)));
        }
        html.push_str("\n</table>\n</section>\n");
        if self.recent_events {
            html.push_str(
                "\n<section id=\"recent\">\n<h2>Last events</h2>\n<table>\n\
<thead><tr><th>type</th><th>source</th><th>timestamp</th><th>detail</th></tr></thead>\n<tbody>\n",
            );
            for e in events {
                html.push_str(&format!(
                    "\n<tr class=\"event\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                    e.kind.as_str(),
                    escape(&e.source),
                    crate::contract::timestamp::format_round_trip(e.timestamp),
                    escape(&detail(e))
                ));
            }
            html.push_str("\n</tbody>\n</table>\n</section>\n");
        }
        html.push_str(
            "\n\n</main>\n<footer>Operational endpoints: <a href=\"/healthz\">/healthz</a> · <a href=\"/metrics\">/metrics</a> · \
<a href=\"/status\">/status</a></footer>\n</body>\n</html>\n",
        );
        html
    }
}

/// One line about an event, as the .NET back-end's page writes it.
fn detail(e: &Event<'_>) -> String {
    match e.kind {
        EventType::Job => format!("{} {}", e.job_id, e.status),
        EventType::Metric => {
            format!("{} = {} {}", e.name, e.value, e.unit.as_deref().unwrap_or("")).trim_end_matches(' ').to_owned()
        }
        EventType::Log => format!("{}: {}", e.level, e.message),
    }
}

/// HTML text and attribute escaping, the set Go's html/template escapes.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&#34;"),
            '\'' => out.push_str("&#39;"),
            '\0' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "<style>
body { font: 15px/1.45 system-ui, sans-serif; margin: 0; color: #1d2330; background: #f5f6f8; }
header { background: #263248; color: #fff; padding: 14px 24px; }
header h1 { margin: 0; font-size: 22px; }
header p { margin: 2px 0 0; opacity: .8; }
main { display: flex; flex-wrap: wrap; gap: 16px; padding: 16px 24px; }
section { background: #fff; border: 1px solid #d8dce3; border-radius: 6px; padding: 8px 16px 12px; }
section#recent { flex-basis: 100%; }
h2 { font-size: 16px; margin: 6px 0; }
table { border-collapse: collapse; }
th, td { text-align: left; padding: 2px 12px 2px 0; vertical-align: top; }
td { font-family: ui-monospace, monospace; overflow-wrap: break-word; }
footer { padding: 0 24px 16px; color: #5b6475; }
</style>
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_text_is_escaped() {
        assert_eq!(escape("<b>\"x\" & 'y'\0</b>"), "&lt;b&gt;&#34;x&#34; &amp; &#39;y&#39;\u{fffd}&lt;/b&gt;");
    }
}
