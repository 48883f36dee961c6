//! Command recognition tables: what a command line is, through its wrappers.

use super::*;
use CommandKind::*;

/// (command, kind, tool, filtered)
const TABLE: &[(&str, CommandKind, Option<&str>, bool)] = &[
    ("cargo test", Test, Some("cargo-test"), false),
    (
        "cargo test --workspace --all-features",
        Test,
        Some("cargo-test"),
        false,
    ),
    ("cargo test -p geo", Test, Some("cargo-test"), true),
    ("cargo test parse::dates", Test, Some("cargo-test"), true),
    ("cargo test -- --nocapture", Test, Some("cargo-test"), false),
    (
        "cargo test -- --exact parse::dates",
        Test,
        Some("cargo-test"),
        true,
    ),
    ("cargo test --lib", Test, Some("cargo-test"), true),
    ("cargo +nightly test", Test, Some("cargo-test"), false),
    ("cargo nextest run", Test, Some("nextest"), false),
    (
        "cargo nextest run -E 'test(parse)'",
        Test,
        Some("nextest"),
        true,
    ),
    ("cargo build --release", Build, Some("cargo-build"), false),
    (
        "cargo check --all-targets",
        Build,
        Some("cargo-check"),
        false,
    ),
    (
        "cargo clippy --all-targets -- -D warnings",
        Lint,
        Some("clippy"),
        false,
    ),
    ("cargo fmt --all -- --check", Lint, Some("rustfmt"), false),
    ("cargo fmt", Other, None, false),
    ("go test ./...", Test, Some("go-test"), false),
    ("go test -race -count=1 ./...", Test, Some("go-test"), false),
    ("go test ./internal/route/", Test, Some("go-test"), true),
    ("go test -run TestETA ./...", Test, Some("go-test"), true),
    ("go vet ./...", Lint, Some("go-vet"), false),
    ("go build ./cmd/app", Build, Some("go-build"), false),
    ("pytest", Test, Some("pytest"), false),
    ("pytest -q tests/", Test, Some("pytest"), false),
    ("pytest tests/unit/test_api.py", Test, Some("pytest"), true),
    ("pytest -k 'not slow'", Test, Some("pytest"), true),
    ("python -m pytest -x -q", Test, Some("pytest"), false),
    ("python3 -m unittest", Test, Some("unittest"), false),
    ("uv run pytest -q", Test, Some("pytest"), false),
    (
        "poetry run pytest tests/test_x.py::test_y",
        Test,
        Some("pytest"),
        true,
    ),
    ("hatch run test", Test, Some("hatch:test"), false),
    ("pdm run lint", Lint, Some("pdm:lint"), false),
    ("tox", Test, Some("tox"), false),
    ("tox -e py312 -- -k parser", Test, Some("tox"), true),
    ("nox -s lint", Lint, Some("nox"), false),
    ("npm test", Test, Some("npm:test"), false),
    (
        "npm test -- -t \"cart totals\"",
        Test,
        Some("npm:test"),
        true,
    ),
    ("npm test -- --coverage", Test, Some("npm:test"), false),
    ("npm run test:unit", Test, Some("npm:test:unit"), true),
    ("npm run lint", Lint, Some("npm:lint"), false),
    ("npm run build", Build, Some("npm:build"), false),
    ("npm run typecheck", Build, Some("npm:typecheck"), false),
    ("npm run -s typecheck", Build, Some("npm:typecheck"), false),
    ("npm run --silent build", Build, Some("npm:build"), false),
    ("npm run check 2>&1", Test, Some("npm:check"), false),
    ("npm run --silent test", Test, Some("npm:test"), false),
    ("npm install", Other, None, false),
    ("pnpm test", Test, Some("pnpm:test"), false),
    ("pnpm --filter web test", Test, Some("pnpm:test"), true),
    ("yarn test src/cart", Test, Some("yarn:test"), true),
    ("bun test", Test, Some("bun-test"), false),
    ("bun run test", Test, Some("bun:test"), false),
    ("npx jest", Test, Some("jest"), false),
    ("npx jest src/cart.test.js", Test, Some("jest"), true),
    ("npx vitest run", Test, Some("vitest"), false),
    ("npx vitest run -t slug", Test, Some("vitest"), true),
    ("npm exec -- vitest run", Test, Some("vitest"), false),
    ("npx mocha --grep parser", Test, Some("mocha"), true),
    ("npx tsc --noEmit", Build, Some("tsc"), false),
    ("npx eslint . --max-warnings=0", Lint, Some("eslint"), false),
    ("npx eslint --fix src", Lint, Some("eslint"), false),
    ("npx prettier --check .", Lint, Some("prettier"), false),
    ("npx prettier --write .", Other, None, false),
    ("deno test", Test, Some("deno-test"), false),
    ("deno task test", Test, Some("deno:test"), false),
    ("turbo run lint", Lint, Some("turbo:lint"), false),
    ("nx test api", Test, Some("nx:test"), true),
    ("nx run-many -t test", Test, Some("nx:test"), false),
    ("make", Build, Some("make:all"), false),
    ("make test", Test, Some("make:test"), false),
    ("make -C backend check", Test, Some("make:check"), false),
    ("make test TEST=test_parse", Test, Some("make:test"), true),
    ("make lint", Lint, Some("make:lint"), false),
    ("make valgrind", Other, None, false),
    ("just test", Test, Some("just:test"), false),
    ("cargo make test", Test, Some("cargo-make:test"), false),
    ("bundle exec rspec", Test, Some("rspec"), false),
    (
        "bundle exec rspec spec/models/user_spec.rb:12",
        Test,
        Some("rspec"),
        true,
    ),
    ("bundle exec rubocop", Lint, Some("rubocop"), false),
    ("vendor/bin/phpunit", Test, Some("phpunit"), false),
    (
        "vendor/bin/phpunit --filter testRefund",
        Test,
        Some("phpunit"),
        true,
    ),
    ("mvn -q test", Test, Some("maven"), false),
    ("mvn test -Dtest=CartTest", Test, Some("maven"), true),
    ("mvn -DskipTests package", Build, Some("maven"), false),
    ("./gradlew test", Test, Some("gradle"), false),
    (
        "./gradlew test --tests 'com.acme.CartTest'",
        Test,
        Some("gradle"),
        true,
    ),
    ("./gradlew :app:test", Test, Some("gradle"), true),
    ("./gradlew assemble", Build, Some("gradle"), false),
    ("./gradlew ktlintCheck", Lint, Some("gradle-lint"), false),
    ("dotnet test", Test, Some("dotnet-test"), false),
    (
        "dotnet test --filter Category=Unit",
        Test,
        Some("dotnet-test"),
        true,
    ),
    ("dotnet build", Build, Some("dotnet-build"), false),
    ("ctest --output-on-failure", Test, Some("ctest"), false),
    ("ctest -R parser", Test, Some("ctest"), true),
    ("cmake --build build", Build, Some("cmake-build"), false),
    ("sbt testOnly com.acme.CartSpec", Test, Some("sbt"), true),
    ("ruff check .", Lint, Some("ruff"), false),
    ("ruff check --fix .", Lint, Some("ruff"), false),
    ("ruff format --check .", Lint, Some("ruff-format"), false),
    ("ruff format .", Other, None, false),
    ("mypy src", Lint, Some("mypy"), false),
    ("black --check .", Lint, Some("black"), false),
    (
        "golangci-lint run ./...",
        Lint,
        Some("golangci-lint"),
        false,
    ),
    ("./scripts/test.sh", Test, Some("script:test"), false),
    ("cd web && npm test", Test, Some("npm:test"), false),
    (
        "bash -lc 'cd api && cargo test 2>&1 | tail -5'",
        Test,
        Some("cargo-test"),
        false,
    ),
    ("timeout 600 cargo test", Test, Some("cargo-test"), false),
    (
        "env RUST_BACKTRACE=1 cargo test",
        Test,
        Some("cargo-test"),
        false,
    ),
    (
        "docker compose run --rm web pytest",
        Test,
        Some("pytest"),
        false,
    ),
    ("git commit -am x", Other, None, false),
    ("ls -la", Other, None, false),
];

#[test]
fn recognises_commands_through_wrappers() {
    let mut failures = Vec::new();
    for (cmd, kind, tool, filtered) in TABLE {
        let c = classify_command(cmd);
        if c.kind != *kind || c.tool.as_deref() != *tool || c.filtered != *filtered {
            failures.push(format!(
                "{cmd:?}: expected {kind:?} {tool:?} filtered={filtered}, got {c:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn test_wins_over_build_in_one_line() {
    assert_eq!(classify_command("cargo build && cargo test").kind, Test);
    assert_eq!(
        classify_each(&parse_invocations(
            "cargo fmt --check && cargo clippy && cargo test"
        ))
        .len(),
        3
    );
}

#[test]
fn exit_status_attribution() {
    let invs = effective_invocations(&parse_invocations("cargo test 2>&1 | tail -5"));
    assert!(!exit_reflects(&invs, 0));
    let invs = effective_invocations(&parse_invocations("cd x && cargo test"));
    assert!(exit_reflects(&invs, 1));
    let invs = effective_invocations(&parse_invocations("cargo test && echo ok"));
    assert!(exit_reflects(&invs, 0));
    let invs = effective_invocations(&parse_invocations("pytest || true"));
    assert!(!exit_reflects(&invs, 0));
    let invs = effective_invocations(&parse_invocations("pytest; echo done"));
    assert!(!exit_reflects(&invs, 0));
    let invs = effective_invocations(&parse_invocations("bash -lc 'pytest -q | tail -3'"));
    assert!(!exit_reflects(&invs, 0));
}

#[test]
fn claimed_commands_name_actual_ones() {
    let actual = parse_invocations("cd /w/app && npx tsc --noEmit -p .");
    assert!(names_command("tsc --noEmit", &actual));
    assert!(names_command("npx tsc", &actual));
    assert!(!names_command("tsc --watch", &actual));
    assert!(!names_command(
        "npm test",
        &parse_invocations("npm run lint")
    ));
    assert!(names_command(
        "cargo test",
        &parse_invocations("cargo test --workspace")
    ));
    assert!(!names_command("", &actual));
    let opened = parse_invocations("code /home/al/app/src/core/system-prompt.ts");
    assert!(names_command("code system-prompt.ts", &opened));
    assert!(!names_command("code prompt.ts", &opened));
    assert!(!names_command(
        "pytest tests/test_a.py",
        &parse_invocations("pytest tests/unit/test_a.py")
    ));
}

#[test]
fn command_like_spans() {
    for yes in [
        "npm test",
        "cargo clippy -- -D warnings",
        "go vet ./...",
        "uv run ruff format",
        "make valgrind",
        "./gradlew build",
    ] {
        assert!(looks_like_command(yes), "{yes}");
    }
    for yes in ["alembic upgrade head", "terraform plan -out plan.bin"] {
        assert!(looks_like_command(yes), "{yes}");
    }
    for no in [
        "main",
        "--dry",
        "Rule::fix",
        "dryRun",
        "PanelAction",
        "",
        "the fix",
        "x = 1",
        "foo(bar)",
        "let x = y",
    ] {
        assert!(!looks_like_command(no), "{no}");
    }
}
