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
