//! State-machine transition conditions: the text of a `when` attribute compiled into clauses the
//! kernel evaluates without parsing.
//!
//! Grammar (whitespace between tokens is free):
//!
//! ```text
//! condition  = clause ("and" clause)*
//! clause     = "!" name                  -- a Bool that is false (a Trigger that is not set)
//!            | name op number            -- Float or Bool (1 / 0) compared with a number
//!            | name                      -- a Bool that is true, a Trigger that is set
//! op         = "==" | "!=" | "<=" | ">=" | "<" | ">"
//! name       = [A-Za-z_][A-Za-z0-9_.]*
//! number     = ["-"] digits ["." digits]  (also ".5", "1e3")
//! ```
//!
//! Errors say what is wrong and where (a byte column in the condition): an unknown parameter, a
//! Trigger compared with a number, a Float used as a clause on its own, an unknown or missing
//! operator, a missing number, a dangling `and`, text after the condition. `and` is a keyword: a
//! parameter may not be called `and`.

use nom::branch::alt;
use nom::bytes::complete::{tag, take_while, take_while1};
use nom::character::complete::{char, multispace0};
use nom::combinator::{opt, recognize};
use nom::number::complete::recognize_float;
use nom::sequence::{pair, preceded};
use nom::IResult;

// The parameter kinds and operators are the kernel's own (`ossicle::statemachine`), so the host and
// the kernel cannot disagree on them.
pub use ossicle::statemachine::{CompareOp, ParamKind};

/// One compiled clause; `param` is the parameter's index in the machine's parameter list.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Clause {
    /// The Bool is true / the Trigger is set.
    Is {
        /// Parameter index.
        param: u32,
    },
    /// The Bool is false / the Trigger is not set.
    IsNot {
        /// Parameter index.
        param: u32,
    },
    /// The Float (or the Bool as 1 / 0) compared with a number.
    Compare {
        /// Parameter index.
        param: u32,
        /// The operator.
        op: CompareOp,
        /// The number.
        value: f64,
    },
}

/// Why a condition did not compile: `column` is the byte offset in the condition text (0-based).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConditionError {
    /// Byte offset of the problem in the condition.
    pub column: usize,
    /// What is wrong.
    pub reason: String,
}

impl std::fmt::Display for ConditionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "condition column {}: {}", self.column + 1, self.reason)
    }
}

fn name(i: &str) -> IResult<&str, &str> {
    recognize(pair(
        take_while1(|c: char| c.is_ascii_alphabetic() || c == '_'),
        take_while(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.'),
    ))(i)
}

fn op(i: &str) -> IResult<&str, CompareOp> {
    alt((
        nom::combinator::value(CompareOp::Eq, tag("==")),
        nom::combinator::value(CompareOp::Ne, tag("!=")),
        nom::combinator::value(CompareOp::Le, tag("<=")),
        nom::combinator::value(CompareOp::Ge, tag(">=")),
        nom::combinator::value(CompareOp::Lt, tag("<")),
        nom::combinator::value(CompareOp::Gt, tag(">")),
    ))(i)
}

fn ws(i: &str) -> &str {
    multispace0::<&str, nom::error::Error<&str>>(i).map(|(rest, _)| rest).unwrap_or(i)
}

/// Compiles `text` against the parameters `params` (name and kind, in the machine's order).
pub fn compile(text: &str, params: &[(&str, ParamKind)]) -> Result<Vec<Clause>, ConditionError> {
    let at = |rest: &str| text.len() - rest.len();
    let err = |rest: &str, reason: String| ConditionError { column: at(rest), reason };
    let lookup = |rest: &str, n: &str| -> Result<(u32, ParamKind), ConditionError> {
        params.iter().position(|(p, _)| *p == n).map(|i| (i as u32, params[i].1)).ok_or_else(|| {
            let known: Vec<&str> = params.iter().map(|(p, _)| *p).collect();
            err(
                rest,
                if known.is_empty() {
                    format!("unknown parameter {n:?} (the state machine has no parameters)")
                } else {
                    format!("unknown parameter {n:?} (the parameters are {})", known.join(", "))
                },
            )
        })
    };
    let mut clauses = Vec::new();
    let mut rest = ws(text);
    if rest.is_empty() {
        return Err(err(rest, "the condition is empty".into()));
    }
    loop {
        let start = rest;
        let negated = opt(preceded(char::<&str, nom::error::Error<&str>>('!'), multispace0))(rest)
            .map(|(r, n)| (r, n.is_some()))
            .unwrap_or((rest, false));
        rest = negated.0;
        let Ok((after_name, n)) = name(rest) else {
            return Err(err(
                rest,
                if rest.is_empty() {
                    "a parameter name is missing at the end (a dangling `and`?)".into()
                } else {
                    format!("expected a parameter name, found {:?}", rest.chars().next().unwrap_or(' '))
                },
            ));
        };
        if n == "and" {
            return Err(err(rest, "expected a parameter name, found `and` (a dangling `and`?)".into()));
        }
        let (param, kind) = lookup(rest, n)?;
        rest = ws(after_name);
        let comparison = op(rest);
        match (negated.1, comparison) {
            (true, Ok(_)) => {
                return Err(err(rest, format!("`!{n}` cannot be compared: write `{n} == 0` or `!{n}`")));
            }
            (true, Err(_)) => {
                if kind == ParamKind::Float {
                    return Err(err(start, format!("{n:?} is a Float: compare it with a number (`{n} < 1`)")));
                }
                clauses.push(Clause::IsNot { param });
            }
            (false, Ok((after_op, o))) => {
                if kind == ParamKind::Trigger {
                    return Err(err(rest, format!("{n:?} is a Trigger: it cannot be compared with a number")));
                }
                let r = ws(after_op);
                let Ok((after_num, num)) = recognize_float::<&str, nom::error::Error<&str>>(r) else {
                    return Err(err(r, format!("a number is missing after the operator of {n:?}")));
                };
                let value: f64 = num.parse().map_err(|_| err(r, format!("{num:?} is not a number")))?;
                if !value.is_finite() {
                    return Err(err(r, format!("{num:?} is not a finite number")));
                }
                clauses.push(Clause::Compare { param, op: o, value });
                rest = ws(after_num);
            }
            (false, Err(_)) => {
                if kind == ParamKind::Float {
                    return Err(err(start, format!("{n:?} is a Float: compare it with a number (`{n} > 0`)")));
                }
                if rest.starts_with('=') || rest.starts_with('!') {
                    return Err(err(rest, "unknown operator: use ==, !=, <, <=, > or >=".into()));
                }
                clauses.push(Clause::Is { param });
            }
        }
        if rest.is_empty() {
            return Ok(clauses);
        }
        match name(rest) {
            Ok((r, "and")) => rest = ws(r),
            _ => {
                return Err(err(
                    rest,
                    format!(
                        "expected `and` or the end of the condition, found {:?}",
                        rest.split_whitespace().next().unwrap_or(rest)
                    ),
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: [(&str, ParamKind); 3] =
        [("speed", ParamKind::Float), ("grounded", ParamKind::Bool), ("jump", ParamKind::Trigger)];

    #[test]
    fn the_issue_conditions_compile() {
        assert_eq!(compile("speed > 10", &P).unwrap(), [Clause::Compare { param: 0, op: CompareOp::Gt, value: 10.0 }]);
        assert_eq!(compile("speed <= 10", &P).unwrap(), [Clause::Compare { param: 0, op: CompareOp::Le, value: 10.0 }]);
        assert_eq!(compile("jump", &P).unwrap(), [Clause::Is { param: 2 }]);
        assert_eq!(compile("grounded", &P).unwrap(), [Clause::Is { param: 1 }]);
        assert_eq!(
            compile("  !grounded and speed>=-2.5 and jump ", &P).unwrap(),
            [
                Clause::IsNot { param: 1 },
                Clause::Compare { param: 0, op: CompareOp::Ge, value: -2.5 },
                Clause::Is { param: 2 }
            ]
        );
        assert_eq!(
            compile("grounded == 1 and speed != .5", &P).unwrap(),
            [
                Clause::Compare { param: 1, op: CompareOp::Eq, value: 1.0 },
                Clause::Compare { param: 0, op: CompareOp::Ne, value: 0.5 }
            ]
        );
    }

    #[test]
    fn errors_say_what_and_where() {
        let e = |t: &str| compile(t, &P).unwrap_err();
        let c = e("run");
        assert_eq!(c.column, 0);
        assert!(c.reason.contains("unknown parameter \"run\"") && c.reason.contains("speed, grounded, jump"), "{c}");
        let c = e("jump > 1");
        assert!(c.reason.contains("Trigger") && c.column == 5, "{c:?}");
        let c = e("speed = 3");
        assert!(c.reason.contains("is a Float"), "{c:?}");
        let c = e("grounded = 3");
        assert!(c.reason.contains("unknown operator") && c.column == 9, "{c:?}");
        let c = e("grounded and");
        assert!(c.reason.contains("dangling `and`") && c.column == 12, "{c:?}");
        let c = e("grounded and and jump");
        assert!(c.reason.contains("dangling `and`"), "{c:?}");
        let c = e("speed >");
        assert!(c.reason.contains("number is missing"), "{c:?}");
        let c = e("grounded or jump");
        assert!(c.reason.contains("expected `and`") && c.reason.contains("\"or\""), "{c:?}");
        let c = e("");
        assert!(c.reason.contains("empty"), "{c:?}");
        let c = e("!speed");
        assert!(c.reason.contains("is a Float"), "{c:?}");
        let c = e("!grounded == 1");
        assert!(c.reason.contains("cannot be compared"), "{c:?}");
        assert_eq!(
            format!("{}", e("x")),
            "condition column 1: unknown parameter \"x\" (the parameters are speed, grounded, jump)"
        );
    }
}
