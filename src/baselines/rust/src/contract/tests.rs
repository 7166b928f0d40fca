//! The contract's reading, validation and normalisation, checked against the cases the Go baselines check
//! (src/baselines/go/contract/request_test.go): the same input names the same problem at the same path.

use super::*;
use crate::contract::timestamp::Ticks;

const CLASSIC_2016: &str = r#"{"data": "{'job_id':'c4bb6d130003','container_id':'ab7b85dcac72','status':'Success: process exited with code 0.'}"}"#;
const TS: &str = r#""timestamp":"2026-11-22T10:00:00Z""#;

fn fixed_now() -> Ticks {
    timestamp::parse("2026-11-22T10:00:00.1234567Z").unwrap()
}

fn typed_job(i: usize) -> String {
    format!(r#"{{"type":"job","source":"s-{i}","timestamp":"2026-11-22T10:00:00Z","job_id":"j-{i}","status":"done"}}"#, i = i)
}

fn typed_metric(i: usize) -> String {
    format!(r#"{{"type":"metric","source":"s-{}","timestamp":"2026-11-22T10:00:00Z","name":"cpu","value":0.01,"unit":"ratio"}}"#, i)
}

fn typed_log(i: usize) -> String {
    format!(r#"{{"type":"log","source":"s-{i}","timestamp":"2026-11-22T10:00:00Z","level":"info","message":"m-{i}"}}"#, i = i)
}

fn read_with(body: &str, format: Format, max: usize) -> Result<String, Problem> {
    let mut events = Vec::new();
    RequestReader { max_batch_events: max }.read(body.as_bytes(), format, fixed_now(), &mut events)?;
    Ok(String::from_utf8(forward_body(&events, 0)).unwrap())
}

fn read(body: &str, format: Format) -> String {
    read_with(body, format, DEFAULT_MAX_BATCH_EVENTS).unwrap_or_else(|p| panic!("{}: {}", body, p))
}

#[test]
fn the_classic_payload_normalises_to_a_job_from_the_classic_source() {
    assert_eq!(
        read(CLASSIC_2016, Format::Json),
        r#"[{"type":"job","source":"classic","timestamp":"2026-11-22T10:00:00.1234567Z","received_at":"2026-11-22T10:00:00.1234567Z","job_id":"c4bb6d130003","container_id":"ab7b85dcac72","status":"Success: process exited with code 0."}]"#
    );
}

#[test]
fn the_classic_inner_document_may_use_double_quotes_and_ignores_other_members() {
    let body = read(
        r#"{"data": "{\"job_id\":\"j1\",\"status\":\"ok\",\"extra\":[1,{\"x\":null}]}", "other": {"a": [true]}, "type": "metric"}"#,
        Format::Json,
    );
    assert!(body.contains(r#""source":"classic""#) && body.contains(r#""job_id":"j1","status":"ok"}"#), "{}", body);
}

#[test]
fn typed_events_normalise_as_the_contract_shows() {
    let cases = [
        (r#"{"type":"metric","source":"node-3","timestamp":"2026-11-22T10:00:00Z","name":"cpu","value":0.93,"unit":"ratio"}"#,
         r#"{"type":"metric","source":"node-3","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:00.1234567Z","name":"cpu","value":0.93,"unit":"ratio"}"#),
        (r#"{"type":"log","source":"api","timestamp":"2026-11-22T10:00:00Z","level":"WARN","message":"disk 91% full"}"#,
         r#"{"type":"log","source":"api","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:00.1234567Z","level":"warn","message":"disk 91% full"}"#),
        (r#"{"type":"JOB","source":"  b-1 ","timestamp":"2026-11-22T11:00:00+01:00","job_id":"j","status":"","extra":[1,2]}"#,
         r#"{"type":"job","source":"b-1","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:00.1234567Z","job_id":"j","status":""}"#),
        (r#"{"type":"job","source":"s","timestamp":"2026-11-22T10:00:00Z","job_id":"j","container_id":"","status":"s"}"#,
         r#"{"type":"job","source":"s","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:00.1234567Z","job_id":"j","container_id":"","status":"s"}"#),
        // Members of other types are not part of the normalised event.
        (r#"{"type":"metric","source":"n","timestamp":"2026-11-22T10:00:00.5Z","name":"big","value":123456789012345678901234567890,"job_id":"x","level":"info","message":"m"}"#,
         r#"{"type":"metric","source":"n","timestamp":"2026-11-22T10:00:00.5Z","received_at":"2026-11-22T10:00:00.1234567Z","name":"big","value":1.2345678901234568e+29}"#),
        (r#"{"type":"log","source":"a","timestamp":"2026-11-22T10:00:00.123Z","level":"Fatal","message":"ünïcödé \ud83d\ude00 \"q\" \\ \u0001"}"#,
         r#"{"type":"log","source":"a","timestamp":"2026-11-22T10:00:00.123Z","received_at":"2026-11-22T10:00:00.1234567Z","level":"fatal","message":"ünïcödé 😀 \"q\" \\ \u0001"}"#),
        // Escaped member names match; received_at is no incoming member, so whatever it holds is ignored.
        (r#"{"type":"log","source":"a","timestamp":"2026-11-22T10:00:00Z","lev\u0065l":"trace","message":"m","received_at":5}"#,
         r#"{"type":"log","source":"a","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:00.1234567Z","level":"trace","message":"m"}"#),
        // data: null is no classic payload.
        (r#"{"data":null,"type":"metric","source":"n","timestamp":"2026-11-22T10:00:00Z","name":"t","value":-0.0}"#,
         r#"{"type":"metric","source":"n","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:00.1234567Z","name":"t","value":-0}"#),
    ];
    for (input, want) in cases {
        assert_eq!(read(input, Format::Json), format!("[{}]", want), "{}", input);
    }
}

#[test]
fn strings_without_escapes_are_borrowed_from_the_body() {
    let body = typed_job(7);
    let mut events = Vec::new();
    RequestReader { max_batch_events: 10 }.read(body.as_bytes(), Format::Json, fixed_now(), &mut events).unwrap();
    assert!(matches!(events[0].job_id, std::borrow::Cow::Borrowed(_)));
    assert!(matches!(events[0].source, std::borrow::Cow::Borrowed(_)));
}

#[test]
fn batches_read_the_same_from_a_json_array_and_ndjson() {
    let mut items: Vec<String> = (0..99).map(|i| [typed_job(i), typed_metric(i), typed_log(i)][i % 3].clone()).collect();
    items.push(CLASSIC_2016.to_owned());
    let from_array = read(&format!("[\n{}\n]", items.join(",\n")), Format::Json);
    let from_lines = read(&format!("\u{feff}\n\r\n{}\n", items.join("\r\n\n")), Format::Ndjson);
    assert_eq!(from_array, from_lines);
    assert_eq!(from_array.matches("\"type\":").count(), 100);
}

#[test]
fn a_byte_order_mark_and_surrounding_white_space_are_accepted() {
    assert!(read(&format!("\u{feff} \r\n{}\n\t ", CLASSIC_2016), Format::Json).contains("c4bb6d130003"));
}

#[test]
fn limits_count_utf16_code_units() {
    let body = |source: &str| {
        format!(r#"{{"type":"job","source":"{}","timestamp":"2026-11-22T10:00:00Z","job_id":"j","status":"s"}}"#, source)
    };
    read(&body(&"é".repeat(256)), Format::Json);
    read(&body(&"s".repeat(256)), Format::Json);
    for source in ["s".repeat(257), "😀".repeat(129)] {
        let p = read_with(&body(&source), Format::Json, 10).unwrap_err();
        assert_eq!((p.kind, p.field.as_deref()), (Kind::InvalidField, Some("$.source")));
    }
}

#[test]
fn bad_bodies_get_the_contracts_problem() {
    use Format::{Json, Ndjson};
    use Kind::*;
    let job = |m: &str| format!(r#"{{"type":"job","source":"s",{},{}}}"#, TS, m);
    let metric = |m: &str| format!(r#"{{"type":"metric","source":"s",{},{}}}"#, TS, m);
    let log = |m: &str| format!(r#"{{"type":"log","source":"s",{},{}}}"#, TS, m);
    let nested = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    let s = |x: &str| x.to_owned();
    let cases: Vec<(String, Format, Kind, &str)> = vec![
        (s(""), Json, EmptyBody, ""),
        (s("  \n "), Json, EmptyBody, ""),
        (s("\u{feff}"), Json, EmptyBody, ""),
        (s("[]"), Json, EmptyBody, ""),
        (s("[ \n ]"), Json, EmptyBody, ""),
        (s("\n\n \r\n"), Ndjson, EmptyBody, ""),
        (s(r#"{"type":"#), Json, MalformedJson, "$.type"),
        (log(r#""level":"info","message":"a\u0000b""#), Json, InvalidField, "$.message"),
        (s("{\"type\":\"job\",\u{0}\"source\":\"s\"}"), Json, MalformedJson, "$.type"),
        (s(r#"{"type":"job"} trailing"#), Json, MalformedJson, "$"),
        (s(r#"{"type":"job",}"#), Json, MalformedJson, "$.type"),
        (s(r#"{"type" "job"}"#), Json, MalformedJson, "$"),
        (s("{'type':'job'}"), Json, MalformedJson, "$"),
        (format!("[{},]", typed_job(0)), Json, MalformedJson, "$[1]"),
        (format!("[{} {}]", typed_job(0), typed_job(1)), Json, MalformedJson, "$[0]"),
        (format!("[{}] x", typed_job(0)), Json, MalformedJson, "$"),
        (format!("[{}", typed_job(0)), Json, MalformedJson, "$[0]"),
        (metric(r#""name":"n","value":01"#), Json, MalformedJson, "$.value"),
        (metric(r#""name":"n","value":1."#), Json, MalformedJson, "$.value"),
        (metric(r#""name":"n","value":1x"#), Json, MalformedJson, "$.value"),
        (job("\"job_id\":\"j\",\"status\":\"a\nb\""), Json, MalformedJson, "$.status"),
        (job(r#""job_id":"j","status":"\x""#), Json, MalformedJson, "$.status"),
        (job(r#""job_id":"j","status":"\u12""#), Json, MalformedJson, "$.status"),
        (job(r#""job_id":"j","status":tru"#), Json, MalformedJson, "$.status"),
        (job(&format!(r#""job_id":"j","status":"s","extra":{}"#, nested(64))), Json, MalformedJson, "$.extra"),
        (s("5x"), Json, MalformedJson, "$"),
        (s("nul"), Json, MalformedJson, "$"),
        (s("null x"), Json, MalformedJson, "$"),
        (s(r#"[{"data": 1}]"#), Json, InvalidField, "$[0].data"),
        (s("null"), Json, InvalidField, "$"),
        (s("[null]"), Json, InvalidField, "$[0]"),
        (s("[[1]]"), Json, InvalidField, "$[0]"),
        (s(r#""just a string""#), Json, InvalidField, "$"),
        (s("5"), Json, InvalidField, "$"),
        (s("true"), Json, InvalidField, "$"),
        (s(r#"[1, {"type":"#), Json, InvalidField, "$[0]"),
        (s(r#"[{}, {"type":"#), Json, MalformedJson, "$[1].type"),
        (s("[1"), Json, MalformedJson, "$[0]"),
        (s("{}"), Json, MissingField, "$.type"),
        (format!(r#"{{"Type":"job","source":"s",{},"job_id":"j","status":"s"}}"#, TS), Json, MissingField, "$.type"),
        (s(r#"{"type":null}"#), Json, MissingField, "$.type"),
        (format!(r#"{{"type":"trace","source":"s",{}}}"#, TS), Json, UnknownType, "$.type"),
        (s(r#"{"type":"jobs"}"#), Json, UnknownType, "$.type"),
        (s(r#"{"type":5}"#), Json, InvalidField, "$.type"),
        (s(r#"{"type":["job"]}"#), Json, InvalidField, "$.type"),
        // A member named twice is refused (docs/contract.md), known members only.
        (s(r#"{"type":"bogus","type":"log"}"#), Json, InvalidField, "$.type"),
        (job(r#""job_id":"j","status":"s","job_id":"k""#), Json, InvalidField, "$.job_id"),
        (s(r#"{"data":null,"data":"{}"}"#), Json, InvalidField, "$.data"),
        (format!(r#"{{"type":"job",{},"job_id":"j","status":"s"}}"#, TS), Json, MissingField, "$.source"),
        (format!(r#"{{"type":"job","source":" ",{},"job_id":"j","status":"s"}}"#, TS), Json, InvalidField, "$.source"),
        (format!(r#"{{"type":"job","source":"\u00a0\u2003",{},"job_id":"j","status":"s"}}"#, TS), Json, InvalidField, "$.source"),
        (s(r#"{"type":"job","source":"s","job_id":"j","status":"s"}"#), Json, MissingField, "$.timestamp"),
        (s(r#"{"type":"job","source":"s","timestamp":null,"job_id":"j","status":"s"}"#), Json, MissingField, "$.timestamp"),
        (s(r#"{"type":"job","source":"s","timestamp":"yesterday","job_id":"j","status":"s"}"#), Json, InvalidField, "$.timestamp"),
        (s(r#"{"type":"job","source":"s","timestamp":"2026-11-22T10:00:00","job_id":"j","status":"s"}"#), Json, InvalidField, "$.timestamp"),
        (s(r#"{"type":"job","source":"s","timestamp":1700000000,"job_id":"j","status":"s"}"#), Json, InvalidField, "$.timestamp"),
        (s(r#"{"type":"job","source":"s","timestamp":"0001-01-01T01:00:00+01:00","job_id":"j","status":"s"}"#), Json, InvalidField, "$.timestamp"),
        (job(r#""status":"s""#), Json, MissingField, "$.job_id"),
        (job(r#""job_id":123,"status":"s""#), Json, InvalidField, "$.job_id"),
        (job(r#""job_id":"","status":"s""#), Json, InvalidField, "$.job_id"),
        (job(&format!(r#""job_id":"{}","status":"s""#, "j".repeat(257))), Json, InvalidField, "$.job_id"),
        (job(r#""job_id":"j""#), Json, MissingField, "$.status"),
        (job(r#""job_id":"j","status":true"#), Json, InvalidField, "$.status"),
        (job(&format!(r#""job_id":"j","status":"{}""#, "s".repeat(4097))), Json, InvalidField, "$.status"),
        (job(r#""job_id":"j","status":"s","container_id":5"#), Json, InvalidField, "$.container_id"),
        (job(&format!(r#""job_id":"j","status":"s","container_id":"{}""#, "c".repeat(257))), Json, InvalidField, "$.container_id"),
        (job(r#""job_id":"j","status":"s","value":"x""#), Json, InvalidField, "$.value"),
        (metric(r#""value":1"#), Json, MissingField, "$.name"),
        (metric(r#""name":" ","value":1"#), Json, InvalidField, "$.name"),
        (metric(r#""name":"cpu""#), Json, MissingField, "$.value"),
        (metric(r#""name":"cpu","value":null"#), Json, MissingField, "$.value"),
        (metric(r#""name":"cpu","value":"0.5""#), Json, InvalidField, "$.value"),
        (metric(r#""name":"cpu","value":1e400"#), Json, InvalidField, "$.value"),
        (metric(r#""name":"cpu","value":-1e400"#), Json, InvalidField, "$.value"),
        (metric(&format!(r#""name":"cpu","value":1,"unit":"{}""#, "u".repeat(257))), Json, InvalidField, "$.unit"),
        (metric(r#""name":"cpu","value":1,"unit":{}"#), Json, InvalidField, "$.unit"),
        (log(r#""message":"m""#), Json, MissingField, "$.level"),
        (log(r#""level":"loud","message":"m""#), Json, InvalidField, "$.level"),
        (log(r#""level":"info""#), Json, MissingField, "$.message"),
        (log(&format!(r#""level":"info","message":"{}""#, "m".repeat(4097))), Json, InvalidField, "$.message"),
        (log(r#""level":"info","message":"\ud800""#), Json, InvalidField, "$.message"),
        (log(r#""level":"info","message":"\udc00\ud800""#), Json, InvalidField, "$.message"),
        (log(r#""level":"info","message":"\ud83d x""#), Json, InvalidField, "$.message"),
        (s(r#"{"data": "{'status':'ok'}"}"#), Json, MissingField, "$.data.job_id"),
        (s(r#"{"data": "{'job_id':'x','status':'unterminated}"}"#), Json, MalformedJson, "$.data"),
        (s(r#"{"data": "{'job_id': 12, 'status':'s'}"}"#), Json, InvalidField, "$.data.job_id"),
        (s(r#"{"data": "{'job_id':'x','status':'s','timestamp':'soon'}"}"#), Json, InvalidField, "$.data.timestamp"),
        (s(r#"{"data": "'not an object'"}"#), Json, InvalidField, "$.data"),
        (s(r#"{"data": "null"}"#), Json, InvalidField, "$.data"),
        (s(r#"{"data": ""}"#), Json, MalformedJson, "$.data"),
        (s(r#"{"data": "{'job_id':'x','status':'s'"}"#), Json, MalformedJson, "$.data.status"),
        (s(r#"{"data": "{'job_id':'x','status':'s'} x"}"#), Json, MalformedJson, "$.data"),
        (s(r#"{"data": "{'job_id':'','status':'s'}"}"#), Json, InvalidField, "$.data.job_id"),
        (format!(r#"{{"data": "{{'job_id':'j','status':'s','container_id':'{}'}}"}}"#, "c".repeat(257)), Json, InvalidField, "$.data.container_id"),
        (format!(r#"{{"data": "{{'job_id':'j','status':'{}'}}"}}"#, "s".repeat(4097)), Json, InvalidField, "$.data"),
        (s(r#"{"data": "\ud800"}"#), Json, InvalidField, "$.data"),
        (s(r#"[{"data": "{'status':'s'}"}]"#), Json, MissingField, "$[0].data.job_id"),
        (format!("[{},{}]", typed_job(0), typed_job(1).replace("\"job_id\"", "\"jobid\"")), Json, MissingField, "$[1].job_id"),
        (format!(r#"[{},{{}}, {{"type":"x"}}]"#, typed_job(0)), Json, MissingField, "$[1].type"),
        (format!("{}\n\n{}\n", typed_job(0), typed_metric(1).replace("0.01", "\"x\"")), Ndjson, InvalidField, "$[1].value"),
        (format!("{}\n{{\"type\":", typed_job(0)), Ndjson, MalformedJson, "$[1].type"),
        (format!("{}\n[{}]", typed_job(0), typed_job(1)), Ndjson, InvalidField, "$[1]"),
        (format!("{}\n\n{} {}", typed_job(0), typed_job(1), typed_job(2)), Ndjson, MalformedJson, "$[1]"),
        (s("\n{\"data\": \"{'status':'s'}\"}"), Ndjson, MissingField, "$[0].data.job_id"),
    ];
    let mut wrong = Vec::new();
    for (body, format, kind, field) in &cases {
        match read_with(body, *format, 10) {
            Ok(_) => wrong.push(format!("{:.90}: accepted; want {:?} at {:?}", body, kind, field)),
            Err(p) => {
                let got_field = p.field.clone().unwrap_or_default();
                if p.kind != *kind || got_field != *field || p.detail.is_empty() {
                    wrong.push(format!("{:.90}: {}; want {:?} at {:?}", body, p, kind, field));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{} of {} cases:\n{}", wrong.len(), cases.len(), wrong.join("\n"));
    // Invalid UTF-8 in a member the service reads.
    let mut bad = log(r#""level":"info","message":"x""#).into_bytes();
    let at = bad.len() - 3;
    bad[at] = 0xc3;
    bad.insert(at + 1, 0x28);
    let mut events = Vec::new();
    let p = RequestReader { max_batch_events: 10 }.read(&bad, Json, fixed_now(), &mut events).unwrap_err();
    assert_eq!((p.kind, p.field.as_deref()), (InvalidField, Some("$.message")));
}

#[test]
fn batches_over_the_event_limit_are_413_after_the_json_reads() {
    let eleven: Vec<String> = (0..11).map(typed_job).collect();
    for (body, format) in [(format!("[{}]", eleven.join(",")), Format::Json), (eleven.join("\n"), Format::Ndjson)] {
        assert_eq!(read_with(&body, format, 10).unwrap_err().kind, Kind::PayloadTooLarge);
    }
    assert!(read_with(&eleven[..10].join("\n"), Format::Ndjson, 10).is_ok());
    // A JSON error anywhere in the array wins over the count.
    assert_eq!(read_with(&format!("[{},]", eleven.join(",")), Format::Json, 10).unwrap_err().kind, Kind::MalformedJson);
}

#[test]
fn problem_bodies_are_rfc9457_in_the_dotnet_order() {
    let p = Problem::new(Kind::MissingField, "'job_id' is required for a job event.", Some("$[3].job_id".into()));
    assert_eq!(
        String::from_utf8(p.to_json()).unwrap(),
        r#"{"type":"urn:ingest:problem:missing-field","title":"A required field is missing.","status":400,"detail":"'job_id' is required for a job event.","field":"$[3].job_id"}"#
    );
    let q = problem::too_large(1024);
    assert!(q.close && String::from_utf8(q.to_json()).unwrap().ends_with(r#""detail":"The body is larger than 1024 bytes."}"#));
    let r = problem::backend_answered("h:1", 503, Some(b"7"));
    assert_eq!((r.kind, r.retry_after), (Kind::Overloaded, 7));
    assert_eq!(problem::backend_answered("h:1", 503, Some(b"soon")).retry_after, 1);
    assert_eq!(problem::backend_answered("h:1", 500, None).kind, Kind::BackEndFailed);
}

#[test]
fn media_types_are_read_as_the_contract_says() {
    for (value, want) in [
        ("application/json", Some(Format::Json)),
        ("Application/JSON;charset=\"UTF-8\"", Some(Format::Json)),
        ("application/json; charset=utf8", Some(Format::Json)),
        ("application/x-ndjson; charset=utf-8", Some(Format::Ndjson)),
        ("application/json; foo=bar", Some(Format::Json)),
        ("application/json; charset=iso-8859-1", None),
        ("text/plain", None),
        ("", None),
        ("application/jsonx", None),
    ] {
        assert_eq!(content_type_format(value.as_bytes()), want, "{}", value);
    }
}

#[test]
fn the_back_end_re_checks_forwarded_events() {
    let good = r#"[{"type":"job","source":"s","timestamp":"2026-11-22T10:00:00Z","received_at":"2026-11-22T10:00:00.5Z","job_id":"j","status":"s"},{"type":"metric","source":"s","timestamp":"2026-11-22T10:00:00Z","name":"n","value":1}]"#;
    let mut types = Vec::new();
    read_forwarded(good.as_bytes(), &mut types).unwrap();
    assert_eq!(types, [EventType::Job, EventType::Metric]);
    for (body, kind, field) in [
        ("", Kind::EmptyBody, ""),
        ("[]", Kind::EmptyBody, ""),
        (r#"{"source":"s"}"#, Kind::MissingField, "$.type"),
        (r#"{"type":"nope"}"#, Kind::UnknownType, "$.type"),
        (r#"[{"type":"log","source":"s","timestamp":"2026-11-22T10:00:00Z","received_at":"then","level":"info","message":"m"}]"#, Kind::InvalidField, "$[0].received_at"),
        (r#"[{"type":"job","source":"s","timestamp":"2026-11-22T10:00:00Z","job_id":"j","status":"s"},{"type":"job"}]"#, Kind::MissingField, "$[1].source"),
        (r#"[{"type":"job"},"#, Kind::MalformedJson, "$[1]"),
    ] {
        let p = read_forwarded(body.as_bytes(), &mut Vec::new()).unwrap_err();
        assert_eq!((p.kind, p.field.unwrap_or_default()), (kind, field.to_owned()), "{}", body);
    }
    let events = forwarded_events(good.as_bytes());
    assert_eq!(events.len(), 2);
    assert_eq!(events[0].received_at, timestamp::parse("2026-11-22T10:00:00.5Z").unwrap());
}

#[test]
fn the_forward_body_reads_back_on_the_back_end() {
    let mut items: Vec<String> = (0..30).map(|i| [typed_job(i), typed_metric(i), typed_log(i)][i % 3].clone()).collect();
    items.push(CLASSIC_2016.to_owned());
    let forward = read(&format!("[{}]", items.join(",")), Format::Json);
    let mut types = Vec::new();
    read_forwarded(forward.as_bytes(), &mut types).unwrap();
    assert_eq!(types.len(), 31);
    let again: Vec<Event<'_>> = forwarded_events(forward.as_bytes());
    assert_eq!(String::from_utf8(forward_body(&again, 0)).unwrap(), forward);
}
