//! A record's fields as the report shows them: the time of day, the codes of its
//! diagnostics, a field as text or as the script's value, another kind's fields listed.

use serde_json::{Map, Value, json};

/// The time of day of a timestamp (`13:00:00.123456Z`).
pub(super) fn time_of(ts: &str) -> &str {
    ts.split_once('T').map_or(ts, |(_, t)| t)
}

/// The codes of a record's diagnostics, each once, in order.
pub(super) fn codes(r: &Value) -> Vec<&str> {
    let mut codes: Vec<&str> = Vec::new();
    for d in r["diagnostics"].as_array().into_iter().flatten() {
        let code = d["code"].as_str().unwrap_or_default();
        if !codes.contains(&code) {
            codes.push(code);
        }
    }
    codes
}

/// A field as text (`None` for null or missing).
pub(super) fn field(r: &Value, key: &str) -> Option<String> {
    match &r[key] {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        other => Some(other.to_string()),
    }
}

/// A field's value for the script: a string or an integer as it is, anything else as its
/// JSON text; `None` for null or missing.
pub(super) fn shown_value(r: &Value, key: &str) -> Option<Value> {
    match &r[key] {
        v @ Value::Number(n) if n.is_u64() || n.is_i64() => Some(v.clone()),
        _ => field(r, key).map(Value::String),
    }
}

/// The fields of a record of any other kind, as `(key, text)` in the record's order: all but
/// `ts`, `session`, `seq`, `kind` and `diagnostics`; a string as it is, any other value as JSON.
pub(super) fn other_fields(r: &Value) -> impl Iterator<Item = (&str, String)> {
    r.as_object()
        .into_iter()
        .flatten()
        .filter_map(|(key, value)| {
            if matches!(
                key.as_str(),
                "ts" | "session" | "seq" | "kind" | "diagnostics"
            ) {
                return None;
            }
            let text = match value {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            Some((key.as_str(), text))
        })
}

/// Any other kind without diagnostics: its fields, `[key, text]`, the script lists them.
pub(super) fn generic_fields(item: &mut Map<String, Value>, r: &Value) {
    let fields = other_fields(r).map(|(key, v)| json!([key, v])).collect();
    item.insert("F".into(), Value::Array(fields));
}
