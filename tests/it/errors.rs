//! Diagnostic snapshots: each `tests/errors/*.game` is a malformed game;
//! its snapshot holds the source and every rendered report (no colour,
//! 80 columns), so a reviewer sees both together.

use tabula::{Game, Source};

#[test]
fn diagnostics() {
    insta::glob!(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/errors"), "*.game", |path| {
        let text = std::fs::read_to_string(path).expect("fixture");
        let name = format!("tests/errors/{}", path.file_name().expect("name").to_string_lossy());
        let report = match Game::load(&Source::new(name, text.clone()), &[]) {
            Ok(_) => panic!("{} should not check", path.display()),
            Err(d) => crate::render_problems(&d.problems),
        };
        insta::assert_snapshot!(
            "diagnostic",
            format!("----- SOURCE\n{text}----- DIAGNOSTICS\n{report}")
        );
    });
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
