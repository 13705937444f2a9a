//! Diagnostic snapshots: each `tests/errors/*.game` is a malformed game;
//! its snapshot holds the source and every rendered report (no colour,
//! 80 columns), so a reviewer sees both together.

use tabula::{Game, Source};

#[test]
fn diagnostics() {
    insta::glob!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/errors"), "*.game", |path| {
        let text = std::fs::read_to_string(path).expect("fixture");
        let name = format!("tests/errors/{}", path.file_name().expect("name").to_string_lossy());
        let report = match Game::load(&Source::new(name, text.clone()), &front_matter(&text)) {
            Ok(_) => panic!("{} should not check", path.display()),
            Err(d) => crate::render_problems(&d.problems),
        };
        insta::assert_snapshot!(
            "diagnostic",
            format!("----- SOURCE\n{text}----- DIAGNOSTICS\n{report}")
        );
    });
}

/// `// set: name=value` lines at the top of a fixture: parameter overrides.
fn front_matter(text: &str) -> Vec<(String, i64)> {
    text.lines()
        .map_while(|l| l.strip_prefix("// set:"))
        .filter_map(|s| s.trim().split_once('='))
        .map(|(k, v)| (k.trim().to_string(), v.trim().parse().expect("a number")))
        .collect()
}

/// Every diagnostic code the parser and the checker can emit (every
/// `"tabula::..."` literal in `src/syntax` and `src/check`) is shown by a
/// fixture in `tests/errors` (or `tests/warnings`); a code no fixture can
/// show (a text over 4 MiB) by an example generated here.
/// `tabula::syntax::internal` has no example text: it reports a bug, a
/// parse tree the lowering does not expect, which no text parses to; the
/// lowering's unit tests hand it such trees.
#[test]
fn every_diagnostic_code_has_an_example() {
    let mut codes = std::collections::BTreeSet::new();
    for dir in ["src/syntax", "src/check"] {
        for path in crate::files(&crate::root().join(dir), "rs") {
            let src = std::fs::read_to_string(&path).unwrap();
            for (i, _) in src.match_indices("\"tabula::") {
                let rest = &src[i + 1..];
                let end = rest.find('"').unwrap();
                codes.insert(rest[..end].to_string());
            }
        }
    }
    assert!(codes.remove("tabula::syntax::internal"), "the lowering's internal error moved");
    let mut shown = std::collections::BTreeSet::new();
    let mut collect =
        |text: String, set: &[(String, i64)]| match Game::load(&Source::new("x", text), set) {
            Ok(g) => shown.extend(g.warnings.iter().map(|p| p.code.to_string())),
            Err(d) => shown.extend(d.problems.iter().map(|p| p.code.to_string())),
        };
    for dir in ["tests/errors", "tests/warnings"] {
        for path in crate::files(&crate::root().join(dir), "game") {
            let text = std::fs::read_to_string(&path).unwrap();
            let set = front_matter(&text);
            collect(text, &set);
        }
    }
    collect(" ".repeat(tabula::syntax::MAX_SOURCE_BYTES + 1), &[]);
    let missing: Vec<&String> = codes.iter().filter(|c| !shown.contains(*c)).collect();
    assert!(missing.is_empty(), "codes without an example in tests/errors: {missing:?}");
}

/// Warning snapshots: each `tests/warnings/*.game` loads, with warnings.
#[test]
fn warnings() {
    insta::glob!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/warnings"), "*.game", |path| {
        let text = std::fs::read_to_string(path).expect("fixture");
        let name = format!("tests/warnings/{}", path.file_name().expect("name").to_string_lossy());
        let g = Game::load(&Source::new(name, text.clone()), &[])
            .unwrap_or_else(|d| panic!("{}", crate::render_problems(&d.problems)));
        assert!(!g.warnings.is_empty(), "{} has no warning", path.display());
        let report = crate::render_problems(&g.warnings);
        insta::assert_snapshot!("warning", format!("----- SOURCE\n{text}----- WARNINGS\n{report}"));
    });
}

#[test]
fn bundled_games_have_no_warnings() {
    for path in crate::files(&crate::root().join("games"), "game") {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let g = crate::game(&name);
        assert!(g.warnings.is_empty(), "{name}: {}", crate::render_problems(&g.warnings));
    }
}

/// Syntax errors in separate declarations are reported together, up to
/// `MAX_SYNTAX_ERRORS`; after an unclosed block the declarations that
/// follow cannot be told apart, so only the first error is reported.
#[test]
fn syntax_errors_recover_only_when_reliable() {
    let head = "game \"g\"\nplayers A, B\nboard square 3 by 3\npiece S \"s\"\n";
    let count = |text: String| match Game::load(&Source::new("x", text.clone()), &[]) {
        Ok(_) => panic!("{text} should not parse"),
        Err(d) => {
            assert!(d.problems.iter().all(|p| p.code == "tabula::syntax"), "{text}");
            d.problems.len()
        }
    };
    let turn = "turn {\n    choose c in cells where empty(c)\n    place S at c\n}\n";
    // Two slips in two declarations: both.
    assert_eq!(count(format!("{head}def f(c) = owner(c) = me\n{turn}at end {{ lose }}\n")), 2);
    // An unclosed `turn` block, and a slip in `at end`: the first only.
    let unclosed = "turn {\n    choose c in cells where empty(c)\n";
    assert_eq!(count(format!("{head}{unclosed}on no moves {{ draw }}\nat end {{ lose }}\n")), 1);
    // Many broken declarations: a bounded number of reports.
    let many = "def f(c) = owner(c) = me\n".repeat(2 * tabula::syntax::MAX_SYNTAX_ERRORS);
    assert_eq!(count(format!("{head}{many}{turn}")), tabula::syntax::MAX_SYNTAX_ERRORS);
}
