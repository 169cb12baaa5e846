//! A small reader for the YAML subset Unity writes (`%YAML 1.1`, `--- !u!CLASS &FILEID` documents,
//! block mappings and sequences with sequences at their key's indentation, flow mappings and
//! sequences, plain scalars continued on deeper lines, single- and double-quoted strings).
//!
//! Each document becomes a `serde_json::Value` (every scalar a string) plus a table from JSON
//! pointers to 1-based line numbers, so readers of the tree report `line N` for a value. Anchors
//! other than the document header's, aliases, tags on values, block scalars (`|`, `>`) and complex
//! keys are not part of Unity's subset and are refused with the line. Nesting deeper than
//! [`MAX_DEPTH`] is refused.
//!
//! ```
//! use ossicle_host::unity::yaml;
//! let docs = yaml::parse("%YAML 1.1\n--- !u!74 &7400000\nAnimationClip:\n  m_Name: Walk\n  m_Curve:\n  - time: 0\n    value: {x: 1, y: 2}\n").unwrap();
//! assert_eq!(docs[0].class_id, Some(74));
//! assert_eq!(docs[0].value["AnimationClip"]["m_Curve"][0]["value"]["y"], "2");
//! assert_eq!(docs[0].line_of("/AnimationClip/m_Curve/0/value"), 7);
//! ```

use super::UnityError;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// The deepest nesting of blocks and flow collections read.
pub const MAX_DEPTH: usize = 64;

/// One YAML document.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    /// The class ID of a `--- !u!CLASS` header.
    pub class_id: Option<i64>,
    /// The file ID of its `&ANCHOR`.
    pub file_id: Option<i64>,
    /// The line of its `---` (or its first line).
    pub line: usize,
    /// Its content (a mapping for Unity objects: `{ClassName: {...}}`).
    pub value: Value,
    lines: HashMap<String, usize>,
}

impl Document {
    /// The line of the value at a JSON pointer, or of its nearest ancestor that has one.
    pub fn line_of(&self, pointer: &str) -> usize {
        let mut p = pointer;
        loop {
            if let Some(l) = self.lines.get(p) {
                return *l;
            }
            match p.rfind('/') {
                Some(i) => p = p.get(..i).unwrap_or(""),
                None => return self.line,
            }
        }
    }

    /// A JSON-pointer error of a reader of this document as a YAML error at the value's line
    /// (the pointer stays in the reason, naming the field).
    pub fn relocate(&self, e: UnityError) -> UnityError {
        match e {
            UnityError::Json { pointer, reason } => {
                UnityError::yaml(self.line_of(&pointer), format!("{}: {reason}", display_pointer(&pointer)))
            }
            other => other,
        }
    }
}

/// A JSON pointer as a field path for messages (`/AnimationClip/m_Curve/0/time` ->
/// `AnimationClip.m_Curve[0].time`).
pub fn display_pointer(pointer: &str) -> String {
    let mut out = String::new();
    for seg in pointer.split('/').skip(1) {
        let seg = seg.replace("~1", "/").replace("~0", "~");
        if !seg.is_empty() && seg.bytes().all(|b| b.is_ascii_digit()) {
            out.push_str(&format!("[{seg}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(&seg);
        }
    }
    out
}

/// A document being collected: its first line, class ID, file ID and lines.
type Pending<'a> = (usize, Option<i64>, Option<i64>, Vec<Line<'a>>);

#[derive(Debug, Clone, Copy)]
struct Line<'a> {
    no: usize,
    indent: usize,
    text: &'a str,
}

/// Parses every document of a YAML text.
pub fn parse(text: &str) -> Result<Vec<Document>, UnityError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut docs = Vec::new();
    let mut current: Option<Pending<'_>> = None;
    for (i, raw) in text.split('\n').enumerate() {
        let no = i + 1;
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        let trimmed = raw.trim_start_matches(' ');
        let indent = raw.len() - trimmed.len();
        if trimmed.starts_with('\t') {
            return Err(UnityError::yaml(no, "a tab in the indentation (YAML indents with spaces)"));
        }
        let body = trimmed.trim_end();
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        if indent == 0 && (body == "---" || body.starts_with("--- ")) {
            if let Some(d) = current.take() {
                docs.push(finish(d)?);
            }
            let (class_id, file_id) = header(no, body)?;
            current = Some((no, class_id, file_id, Vec::new()));
            continue;
        }
        if indent == 0 && body == "..." {
            if let Some(d) = current.take() {
                docs.push(finish(d)?);
            }
            continue;
        }
        if indent == 0 && body.starts_with('%') {
            if current.as_ref().is_some_and(|c| !c.3.is_empty()) {
                return Err(UnityError::yaml(no, "a directive inside a document"));
            }
            continue;
        }
        current.get_or_insert_with(|| (no, None, None, Vec::new())).3.push(Line { no, indent, text: body });
    }
    if let Some(d) = current.take() {
        docs.push(finish(d)?);
    }
    Ok(docs)
}

/// `--- !u!74 &7400000 [stripped]`.
fn header(no: usize, body: &str) -> Result<(Option<i64>, Option<i64>), UnityError> {
    let mut class_id = None;
    let mut file_id = None;
    for word in body.split_whitespace().skip(1) {
        if let Some(c) = word.strip_prefix("!u!") {
            class_id =
                Some(c.parse().map_err(|_| UnityError::yaml(no, format!("class ID `{c}` of `!u!` is not a number")))?);
        } else if let Some(a) = word.strip_prefix('&') {
            file_id = Some(a.parse().map_err(|_| UnityError::yaml(no, format!("file ID `&{a}` is not a number")))?);
        } else if word != "stripped" {
            return Err(UnityError::yaml(no, format!("unexpected `{word}` after `---`")));
        }
    }
    Ok((class_id, file_id))
}

fn finish((line, class_id, file_id, lines): Pending<'_>) -> Result<Document, UnityError> {
    let mut p = Parser { lines, pos: 0, table: HashMap::new() };
    let value = match p.lines.first().copied() {
        None => Value::Null,
        Some(first) => {
            if first.indent != 0 {
                return Err(UnityError::yaml(first.no, "the document's first line is indented"));
            }
            let v = p.block(0, "", 0)?;
            if let Some(l) = p.lines.get(p.pos) {
                return Err(UnityError::yaml(l.no, "unexpected indentation (less than the block it follows)"));
            }
            v
        }
    };
    Ok(Document { class_id, file_id, line, value, lines: p.table })
}

struct Parser<'a> {
    lines: Vec<Line<'a>>,
    pos: usize,
    table: HashMap<String, usize>,
}

fn is_item(text: &str) -> bool {
    text == "-" || text.starts_with("- ")
}

/// `key: rest` or `key:`; `None` if the text is not a mapping entry.
fn split_key(text: &str) -> Option<(&str, &str)> {
    if text.starts_with(['{', '[', '"', '\'', '&', '*', '!', '|', '>', '?']) {
        return None;
    }
    let (key, rest) = match text.find(": ") {
        Some(i) => (text.get(..i)?, text.get(i + 2..)?),
        None => (text.strip_suffix(':')?, ""),
    };
    (!key.is_empty() && !key.contains(" #")).then_some((key.trim_end(), rest.trim_start()))
}

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

impl<'a> Parser<'a> {
    fn block(&mut self, indent: usize, ptr: &str, depth: usize) -> Result<Value, UnityError> {
        let Some(l) = self.lines.get(self.pos).copied() else { return Ok(Value::String(String::new())) };
        if depth > MAX_DEPTH {
            return Err(UnityError::yaml(l.no, format!("nested deeper than {MAX_DEPTH} levels")));
        }
        if is_item(l.text) {
            self.seq(indent, ptr, depth)
        } else {
            self.map(indent, ptr, depth)
        }
    }

    fn map(&mut self, indent: usize, ptr: &str, depth: usize) -> Result<Value, UnityError> {
        let mut obj = Map::new();
        while let Some(l) = self.lines.get(self.pos).copied() {
            if l.indent < indent || (l.indent == indent && is_item(l.text)) {
                break;
            }
            if l.indent > indent {
                return Err(UnityError::yaml(l.no, "unexpected indentation (more than the mapping's keys)"));
            }
            let Some((key, rest)) = split_key(l.text) else {
                return Err(UnityError::yaml(
                    l.no,
                    format!("expected `key: value` in a mapping, found `{}`", clip_text(l.text)),
                ));
            };
            let key = unquote_key(l.no, key)?;
            let child = format!("{ptr}/{}", escape(&key));
            self.table.insert(child.clone(), l.no);
            self.pos += 1;
            let value = if rest.is_empty() {
                match self.lines.get(self.pos).copied() {
                    Some(n) if n.indent > indent || (n.indent == indent && is_item(n.text)) => {
                        self.block(n.indent, &child, depth + 1)?
                    }
                    _ => Value::String(String::new()),
                }
            } else {
                self.inline(l.no, indent, rest, &child, depth)?
            };
            if obj.insert(key.clone(), value).is_some() {
                return Err(UnityError::yaml(l.no, format!("duplicate key `{key}`")));
            }
        }
        Ok(Value::Object(obj))
    }

    fn seq(&mut self, indent: usize, ptr: &str, depth: usize) -> Result<Value, UnityError> {
        let mut arr = Vec::new();
        while let Some(l) = self.lines.get(self.pos).copied() {
            if l.indent != indent || !is_item(l.text) {
                if l.indent > indent {
                    return Err(UnityError::yaml(l.no, "unexpected indentation (more than the sequence's items)"));
                }
                break;
            }
            let child = format!("{ptr}/{}", arr.len());
            self.table.insert(child.clone(), l.no);
            let content = l.text.get(1..).unwrap_or("");
            let trimmed = content.trim_start_matches(' ');
            let inner = indent + 1 + (content.len() - trimmed.len());
            let value = if trimmed.is_empty() {
                self.pos += 1;
                match self.lines.get(self.pos).copied() {
                    Some(n) if n.indent > indent => self.block(n.indent, &child, depth + 1)?,
                    _ => Value::String(String::new()),
                }
            } else if is_item(trimmed) || split_key(trimmed).is_some() {
                // `- key: v` / `- - x`: the rest of the line is the first line of a block at its
                // own column.
                if let Some(slot) = self.lines.get_mut(self.pos) {
                    *slot = Line { no: l.no, indent: inner, text: trimmed };
                }
                self.block(inner, &child, depth + 1)?
            } else {
                self.pos += 1;
                self.inline(l.no, indent, trimmed, &child, depth)?
            };
            arr.push(value);
        }
        Ok(Value::Array(arr))
    }

    /// A value on the line of its key (or item), with continuation lines deeper than `indent`.
    fn inline(&mut self, no: usize, indent: usize, rest: &str, ptr: &str, depth: usize) -> Result<Value, UnityError> {
        let mut text = rest.to_string();
        // Continuation lines: more indented than the key, not a new entry of this block.
        while let Some(n) = self.lines.get(self.pos).copied() {
            if n.indent <= indent {
                break;
            }
            text.push(' ');
            text.push_str(n.text);
            self.pos += 1;
        }
        if text.starts_with(['&', '*', '!', '|', '>']) {
            return Err(UnityError::yaml(
                no,
                format!(
                    "`{}`: anchors, aliases, tags and block scalars are not part of Unity's YAML",
                    clip_text(&text)
                ),
            ));
        }
        let mut f = Flow { s: &text, i: 0, no, table: &mut self.table };
        let v = f.value(ptr, depth, false)?;
        f.skip_ws();
        if f.i < f.s.len() {
            return Err(UnityError::yaml(
                no,
                format!("unexpected `{}` after the value", clip_text(f.s.get(f.i..).unwrap_or(""))),
            ));
        }
        Ok(v)
    }
}

fn clip_text(s: &str) -> String {
    let mut out: String = s.chars().take(40).collect();
    if s.chars().count() > 40 {
        out.push('…');
    }
    out
}

fn unquote_key(no: usize, key: &str) -> Result<String, UnityError> {
    if key.starts_with(['"', '\'']) {
        let mut t = HashMap::new();
        let mut f = Flow { s: key, i: 0, no, table: &mut t };
        return match f.value("", 0, true)? {
            Value::String(s) => Ok(s),
            _ => Err(UnityError::yaml(no, "a key is not a string")),
        };
    }
    Ok(key.to_string())
}

/// Flow values and scalars on one (joined) line.
struct Flow<'s, 't> {
    s: &'s str,
    i: usize,
    no: usize,
    table: &'t mut HashMap<String, usize>,
}

impl Flow<'_, '_> {
    fn peek(&self) -> Option<char> {
        self.s.get(self.i..).and_then(|r| r.chars().next())
    }

    fn skip_ws(&mut self) {
        while self.peek() == Some(' ') {
            self.i += 1;
        }
    }

    fn err(&self, reason: impl Into<String>) -> UnityError {
        UnityError::yaml(self.no, reason)
    }

    /// A value; `in_flow`: plain scalars end at `,`, `]`, `}` (and keys at `:`).
    fn value(&mut self, ptr: &str, depth: usize, in_flow: bool) -> Result<Value, UnityError> {
        if depth > MAX_DEPTH {
            return Err(self.err(format!("nested deeper than {MAX_DEPTH} levels")));
        }
        self.skip_ws();
        match self.peek() {
            Some('{') => self.map(ptr, depth),
            Some('[') => self.seq(ptr, depth),
            Some('"') => self.double().map(Value::String),
            Some('\'') => self.single().map(Value::String),
            _ => Ok(Value::String(self.plain(in_flow, false))),
        }
    }

    fn plain(&mut self, in_flow: bool, key: bool) -> String {
        let start = self.i;
        let rest = self.s.get(start..).unwrap_or("");
        let mut end = rest.len();
        for (j, c) in rest.char_indices() {
            let stop = (in_flow && matches!(c, ',' | ']' | '}'))
                || (key
                    && c == ':'
                    && rest.get(j + 1..).is_none_or(|r| r.is_empty() || r.starts_with([' ', ',', '}'])));
            if stop {
                end = j;
                break;
            }
        }
        self.i = start + end;
        rest.get(..end).unwrap_or("").trim().to_string()
    }

    fn map(&mut self, ptr: &str, depth: usize) -> Result<Value, UnityError> {
        self.i += 1;
        let mut obj = Map::new();
        loop {
            self.skip_ws();
            match self.peek() {
                Some('}') => {
                    self.i += 1;
                    return Ok(Value::Object(obj));
                }
                None => return Err(self.err("unterminated flow mapping `{`")),
                _ => {}
            }
            let key = match self.peek() {
                Some('"') => self.double()?,
                Some('\'') => self.single()?,
                _ => self.plain(true, true),
            };
            self.skip_ws();
            let value = if self.peek() == Some(':') {
                self.i += 1;
                let child = format!("{ptr}/{}", escape(&key));
                self.table.insert(child.clone(), self.no);
                self.value(&child, depth + 1, true)?
            } else {
                Value::String(String::new())
            };
            if key.is_empty() {
                return Err(self.err("a flow mapping entry without a key"));
            }
            if obj.insert(key.clone(), value).is_some() {
                return Err(self.err(format!("duplicate key `{key}`")));
            }
            self.skip_ws();
            match self.peek() {
                Some(',') => self.i += 1,
                Some('}') => {}
                None => return Err(self.err("unterminated flow mapping `{`")),
                _ => return Err(self.err("expected `,` or `}` in a flow mapping")),
            }
        }
    }

    fn seq(&mut self, ptr: &str, depth: usize) -> Result<Value, UnityError> {
        self.i += 1;
        let mut arr = Vec::new();
        loop {
            self.skip_ws();
            match self.peek() {
                Some(']') => {
                    self.i += 1;
                    return Ok(Value::Array(arr));
                }
                None => return Err(self.err("unterminated flow sequence `[`")),
                _ => {}
            }
            let child = format!("{ptr}/{}", arr.len());
            self.table.insert(child.clone(), self.no);
            arr.push(self.value(&child, depth + 1, true)?);
            self.skip_ws();
            match self.peek() {
                Some(',') => self.i += 1,
                Some(']') => {}
                None => return Err(self.err("unterminated flow sequence `[`")),
                _ => return Err(self.err("expected `,` or `]` in a flow sequence")),
            }
        }
    }

    fn single(&mut self) -> Result<String, UnityError> {
        self.i += 1;
        let mut out = String::new();
        loop {
            let Some(c) = self.peek() else { return Err(self.err("unterminated single-quoted string")) };
            self.i += c.len_utf8();
            if c == '\'' {
                if self.peek() == Some('\'') {
                    self.i += 1;
                    out.push('\'');
                } else {
                    return Ok(out);
                }
            } else {
                out.push(c);
            }
        }
    }

    fn double(&mut self) -> Result<String, UnityError> {
        self.i += 1;
        let mut out = String::new();
        loop {
            let Some(c) = self.peek() else { return Err(self.err("unterminated double-quoted string")) };
            self.i += c.len_utf8();
            match c {
                '"' => return Ok(out),
                '\\' => {
                    let Some(e) = self.peek() else { return Err(self.err("unterminated double-quoted string")) };
                    self.i += e.len_utf8();
                    match e {
                        'n' => out.push('\n'),
                        't' => out.push('\t'),
                        'r' => out.push('\r'),
                        '0' => out.push('\0'),
                        ' ' => out.push(' '),
                        '/' => out.push('/'),
                        '"' | '\\' => out.push(e),
                        'x' | 'u' | 'U' => {
                            let n = match e {
                                'x' => 2,
                                'u' => 4,
                                _ => 8,
                            };
                            let hex = self.s.get(self.i..self.i + n).unwrap_or("");
                            let ch =
                                u32::from_str_radix(hex, 16).ok().filter(|_| hex.len() == n).and_then(char::from_u32);
                            let Some(ch) = ch else {
                                return Err(self.err(format!("bad escape `\\{e}{hex}` in a double-quoted string")));
                            };
                            self.i += n;
                            out.push(ch);
                        }
                        other => return Err(self.err(format!("unknown escape `\\{other}` in a double-quoted string"))),
                    }
                }
                _ => out.push(c),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequences_at_key_indentation_and_items_with_maps() {
        let t = "a:\n- x: 1\n  y: [1, 2]\n- z\nb: 'it''s'\nc: \"q\\u00e9\"\nd: long\n  wrapped text\ne:\n";
        let d = parse(t).unwrap();
        let v = &d[0].value;
        assert_eq!(v["a"][0]["x"], "1");
        assert_eq!(v["a"][0]["y"][1], "2");
        assert_eq!(v["a"][1], "z");
        assert_eq!(v["b"], "it's");
        assert_eq!(v["c"], "qé");
        assert_eq!(v["d"], "long wrapped text");
        assert_eq!(v["e"], "");
        assert_eq!(d[0].line_of("/a/1"), 4);
        assert_eq!(d[0].line_of("/a/0/y/1"), 3);
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse("a: [1] x\n").unwrap_err();
        assert_eq!(e, UnityError::yaml(1, "unexpected `x` after the value"));
        let e = parse("a:\n  b: 1\n c: 2\n").unwrap_err();
        assert!(matches!(e, UnityError::Yaml { line: 3, .. }), "{e}");
        let e = parse("a: {x: 1\n").unwrap_err();
        assert_eq!(e, UnityError::yaml(1, "unterminated flow mapping `{`"));
        let e = parse("a: 1\na: 2\n").unwrap_err();
        assert_eq!(e, UnityError::yaml(2, "duplicate key `a`"));
        let e = parse("a:\n\t- 1\n").unwrap_err();
        assert!(matches!(e, UnityError::Yaml { line: 2, .. }));
    }

    #[test]
    fn deep_nesting_is_refused() {
        let t = "[".repeat(200);
        assert!(parse(&format!("a: {t}")).unwrap_err().to_string().contains("nested deeper"));
        let mut t = String::new();
        for i in 0..100 {
            t.push_str(&" ".repeat(i));
            t.push_str("k:\n");
        }
        assert!(parse(&t).unwrap_err().to_string().contains("nested deeper"));
    }

    #[test]
    fn pointers_display_as_field_paths() {
        assert_eq!(display_pointer("/AnimationClip/m_Curve/0/time"), "AnimationClip.m_Curve[0].time");
    }
}
