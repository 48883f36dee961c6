//! `argsSchema`: a JSON-Schema subset. Manifests are checked against the subset when they load;
//! arguments are defaulted, coerced (command-line strings become the declared types) and then
//! validated by the `jsonschema` crate.
//!
//! The subset: `type` (`object` at the top; `string`, `integer`, `number`, `boolean`, `array`,
//! `object` below), `properties`, `required`, `additionalProperties` (boolean), `items`,
//! `enum`, `default`, `minimum`, `maximum`, `minLength`, `maxLength`, `pattern`, `minItems`,
//! `maxItems`, `description`, `title`, `examples`, `$schema`.

use serde_json::{Map, Number, Value};

const KEYWORDS: [&str; 18] = [
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "default",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "description",
    "title",
    "examples",
    "$schema",
];

const TYPES: [&str; 6] = ["string", "integer", "number", "boolean", "array", "object"];

/// Problems with `schema` as an `argsSchema`, each starting with the path inside it
/// (`""` for the root, `.properties.x` below).
pub fn check_schema(schema: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    let Some(obj) = schema.as_object() else {
        return vec![": must be an object".to_string()];
    };
    if obj.get("type").and_then(Value::as_str) != Some("object") {
        problems.push(": the top-level type must be \"object\"".to_string());
    }
    check_node(schema, "", &mut problems);
    if problems.is_empty() {
        if let Err(e) = jsonschema::validator_for(schema) {
            problems.push(format!(": {e}"));
        }
    }
    problems
}

fn check_node(node: &Value, path: &str, problems: &mut Vec<String>) {
    let Some(obj) = node.as_object() else {
        problems.push(format!("{path}: must be an object"));
        return;
    };
    for key in obj.keys() {
        if !KEYWORDS.contains(&key.as_str()) {
            problems.push(format!(
                "{path}: keyword {key:?} is outside the supported subset ({})",
                KEYWORDS.join(", ")
            ));
        }
    }
    match obj.get("type") {
        Some(t) if declared_types(t).is_some() => {}
        Some(_) => problems.push(format!(
            "{path}.type: must be one of {}, or an array of them (\"null\" allowed)",
            TYPES.join(", ")
        )),
        None => problems.push(format!("{path}: missing \"type\"")),
    }
    if let Some(props) = obj.get("properties") {
        match props.as_object() {
            Some(props) => {
                for (name, sub) in props {
                    check_node(sub, &format!("{path}.properties.{name}"), problems);
                }
            }
            None => problems.push(format!("{path}.properties: must be an object")),
        }
    }
    if let Some(required) = obj.get("required") {
        let props = obj.get("properties").and_then(Value::as_object);
        match required.as_array() {
            Some(names) => {
                for name in names {
                    match name.as_str() {
                        Some(n) if props.is_some_and(|p| p.contains_key(n)) => {}
                        Some(n) => problems
                            .push(format!("{path}.required: {n:?} is not a declared property")),
                        None => problems.push(format!("{path}.required: must list strings")),
                    }
                }
            }
            None => problems.push(format!("{path}.required: must be an array")),
        }
    }
    if let Some(ap) = obj.get("additionalProperties") {
        if !ap.is_boolean() {
            problems.push(format!(
                "{path}.additionalProperties: only true or false is supported"
            ));
        }
    }
    if let Some(items) = obj.get("items") {
        check_node(items, &format!("{path}.items"), problems);
    }
}

/// The declared types of a `type` keyword (a name or an array of names, `"null"` allowed in
/// an array), or `None` when it is outside the subset.
fn declared_types(t: &Value) -> Option<Vec<&str>> {
    match t {
        Value::String(s) if TYPES.contains(&s.as_str()) => Some(vec![s.as_str()]),
        Value::Array(items) if !items.is_empty() => items
            .iter()
            .map(|i| i.as_str().filter(|s| TYPES.contains(s) || *s == "null"))
            .collect(),
        _ => None,
    }
}

fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Applies defaults (explicit arguments win over `defaults`, which win over each property's
/// schema `default`), coerces values to the declared types, then validates. Returns the final
/// arguments or every problem.
pub fn prepare_args(
    schema: &Value,
    defaults: &Map<String, Value>,
    given: &Map<String, Value>,
) -> Result<Map<String, Value>, Vec<String>> {
    let props = schema.get("properties").and_then(Value::as_object);
    let mut args = Map::new();
    if let Some(props) = props {
        for (name, sub) in props {
            if let Some(d) = sub.get("default") {
                args.insert(name.clone(), d.clone());
            }
        }
    }
    for (k, v) in defaults.iter().chain(given.iter()) {
        args.insert(k.clone(), v.clone());
    }
    let mut problems = Vec::new();
    if let Some(props) = props {
        for (name, value) in args.iter_mut() {
            if let Some(sub) = props.get(name) {
                if let Err(e) = coerce(value, sub) {
                    problems.push(format!("argument {name:?}: {e}"));
                }
            }
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let instance = Value::Object(args);
    match jsonschema::validator_for(schema) {
        Ok(validator) => {
            let errors: Vec<String> = validator
                .iter_errors(&instance)
                .map(|e| {
                    let at = e.instance_path().to_string();
                    if at.is_empty() {
                        format!("arguments: {e}")
                    } else {
                        format!("argument {}: {e}", at.trim_start_matches('/'))
                    }
                })
                .collect();
            if !errors.is_empty() {
                return Err(errors);
            }
        }
        Err(e) => return Err(vec![format!("argsSchema does not compile: {e}")]),
    }
    match instance {
        Value::Object(args) => Ok(args),
        _ => Ok(Map::new()),
    }
}

/// Converts `value` in place to the type `schema` declares, when it is a lossless reading of
/// a command-line string (or a scalar where a string is wanted). Leaves other values for the
/// validator to report.
fn coerce(value: &mut Value, schema: &Value) -> Result<(), String> {
    let Some(types) = schema.get("type").and_then(declared_types) else {
        return Ok(());
    };
    let current = json_type(value);
    let already = types
        .iter()
        .any(|t| *t == current || (*t == "number" && current == "integer"));
    let ty = if already {
        current
    } else {
        types
            .iter()
            .copied()
            .find(|t| *t != "null")
            .unwrap_or("null")
    };
    let converted = match (ty, &*value) {
        ("integer", Value::String(s)) => {
            let n: i64 = s
                .trim()
                .parse()
                .map_err(|_| format!("{s:?} is not an integer"))?;
            Some(Value::Number(n.into()))
        }
        ("integer", Value::Number(n)) if n.as_i64().is_none() && n.as_u64().is_none() => {
            match n.as_f64() {
                Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => {
                    Some(Value::Number((f as i64).into()))
                }
                _ => None,
            }
        }
        ("number", Value::String(s)) => {
            let f: f64 = s
                .trim()
                .parse()
                .map_err(|_| format!("{s:?} is not a number"))?;
            Some(Value::Number(
                Number::from_f64(f).ok_or(format!("{s:?} is not a finite number"))?,
            ))
        }
        ("boolean", Value::String(s)) => match s.trim().to_ascii_lowercase().as_str() {
            "true" | "yes" | "1" | "on" => Some(Value::Bool(true)),
            "false" | "no" | "0" | "off" => Some(Value::Bool(false)),
            _ => return Err(format!("{s:?} is not a boolean (true/false)")),
        },
        ("string", Value::Number(n)) => Some(Value::String(n.to_string())),
        ("string", Value::Bool(b)) => Some(Value::String(b.to_string())),
        ("array", Value::String(s)) => {
            let trimmed = s.trim();
            if trimmed.starts_with('[') {
                Some(serde_json::from_str(trimmed).map_err(|e| format!("not a JSON array: {e}"))?)
            } else if trimmed.is_empty() {
                Some(Value::Array(Vec::new()))
            } else {
                Some(Value::Array(
                    trimmed
                        .split(',')
                        .map(|p| Value::String(p.trim().to_string()))
                        .collect(),
                ))
            }
        }
        ("object", Value::String(s)) => {
            Some(serde_json::from_str(s.trim()).map_err(|e| format!("not a JSON object: {e}"))?)
        }
        _ => None,
    };
    if let Some(v) = converted {
        *value = v;
    }
    if let (Value::Array(items), Some(item_schema)) = (&mut *value, schema.get("items")) {
        for (i, item) in items.iter_mut().enumerate() {
            coerce(item, item_schema).map_err(|e| format!("item {i}: {e}"))?;
        }
    }
    if let (Value::Object(map), Some(props)) = (
        &mut *value,
        schema.get("properties").and_then(Value::as_object),
    ) {
        for (k, v) in map.iter_mut() {
            if let Some(sub) = props.get(k) {
                coerce(v, sub).map_err(|e| format!("{k}: {e}"))?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "count": {"type": "integer", "minimum": 1, "default": 3},
                "verbose": {"type": "boolean"},
                "names": {"type": "array", "items": {"type": "string"}},
                "ratio": {"type": "number"},
                "mode": {"type": "string", "enum": ["fast", "slow"]}
            },
            "required": ["mode"],
            "additionalProperties": false
        })
    }

    fn map(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap()
    }

    #[test]
    fn coerces_command_line_strings() {
        let args = prepare_args(
            &schema(),
            &Map::new(),
            &map(json!({"count": "7", "verbose": "yes", "names": "a, b", "ratio": "0.5", "mode": "fast"})),
        )
        .unwrap();
        assert_eq!(
            Value::Object(args),
            json!({"count": 7, "verbose": true, "names": ["a", "b"], "ratio": 0.5, "mode": "fast"})
        );
    }

    #[test]
    fn defaults_layer_under_given_args() {
        let args = prepare_args(
            &schema(),
            &map(json!({"mode": "slow", "count": 5})),
            &map(json!({"count": 9})),
        )
        .unwrap();
        assert_eq!(args["count"], json!(9));
        assert_eq!(args["mode"], json!("slow"));
        let args = prepare_args(&schema(), &Map::new(), &map(json!({"mode": "slow"}))).unwrap();
        assert_eq!(args["count"], json!(3), "schema default applies last");
    }

    #[test]
    fn reports_every_validation_error() {
        let errors = prepare_args(
            &schema(),
            &Map::new(),
            &map(json!({"count": 0, "extra": 1})),
        )
        .unwrap_err();
        let text = errors.join("\n");
        assert!(text.contains("count"), "{text}");
        assert!(text.contains("mode"), "{text}");
        assert!(text.contains("extra"), "{text}");
        let errors = prepare_args(
            &schema(),
            &Map::new(),
            &map(json!({"count": "many", "mode": "fast"})),
        )
        .unwrap_err();
        assert!(errors[0].contains("not an integer"), "{errors:?}");
    }

    #[test]
    fn rejects_keywords_outside_the_subset() {
        let problems = check_schema(&json!({
            "type": "object",
            "properties": {"x": {"oneOf": [{"type": "string"}]}},
            "required": ["y"]
        }));
        let text = problems.join("\n");
        assert!(text.contains(".properties.x: keyword \"oneOf\""), "{text}");
        assert!(text.contains("\"y\" is not a declared property"), "{text}");
        assert!(check_schema(&json!({"type": "array"}))[0].contains("top-level"));
    }
}
