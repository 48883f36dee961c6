//! The table itself. Order matters where entries share a program: the first entry whose
//! recogniser accepts an invocation is the tool it runs.

use super::parse::{self, checks, TestParser};
use super::recognise as r;
use super::{Output, Tool, ToolKind};

macro_rules! tool {
    ($id:literal, $family:literal, $kind:ident, [$($p:literal),* $(,)?], $rec:expr,
     filters: [$($f:literal),* $(,)?], $out:expr, prose: [$($n:literal),* $(,)?], $ex:literal) => {
        Tool {
            id: $id,
            family: $family,
            kind: ToolKind::$kind,
            programs: &[$($p),*],
            recognise: $rec,
            filters: &[$($f),*],
            output: $out,
            prose: &[$($n),*],
            example: $ex,
        }
    };
}

const fn tests(parse: TestParser, runner: &'static str) -> Output {
    Output::Tests { parse, runner }
}

/// libtest's human output, else its JSON events.
fn cargo_any(out: &str) -> Option<super::TestReport> {
    parse::cargo(out).or_else(|| parse::libtest_json(out))
}

/// `go test` text, else `-json` events.
fn go_any(out: &str) -> Option<super::TestReport> {
    parse::go(out).or_else(|| parse::go_json(out))
}

/// jest's console summary, else its `--json` report.
fn jest_any(out: &str) -> Option<super::TestReport> {
    parse::jest(out).or_else(|| parse::jest_json(out))
}

/// Maven's console, else a Surefire XML report.
fn maven_any(out: &str) -> Option<super::TestReport> {
    parse::maven(out).or_else(|| parse::junit_xml(out))
}

/// Every test parser, in the order they are tried on output whose tool is unknown (the most
/// specific formats first: nextest's output embeds libtest lines).
pub(super) const TEST_PARSERS: &[TestParser] = &[
    parse::nextest,
    parse::cargo,
    parse::libtest_json,
    parse::pytest,
    parse::go,
    parse::go_json,
    parse::jest,
    parse::vitest,
    parse::bun,
    parse::deno,
    parse::mocha,
    parse::playwright,
    parse::rspec,
    parse::minitest,
    parse::exunit,
    parse::phpunit,
    parse::maven,
    parse::gradle,
    parse::dotnet,
    parse::ctest,
    parse::unittest,
    parse::swift,
    parse::generic,
];

pub static TOOLS: &[Tool] = &[
    // Rust.
    tool!("cargo-test", "cargo-test", Test, ["cargo"], r::cargo_test,
        filters: ["-p", "--package", "--lib", "--bin", "--test", "--doc", "--exact", "--skip"],
        tests(cargo_any, "cargo"), prose: ["cargo test", "cargo tests", "libtest"], "cargo test --workspace"),
    tool!("nextest", "cargo-test", Test, ["cargo", "cargo-nextest"], r::nextest,
        filters: ["-p", "--package", "-E", "--filter-expr", "--partition", "--run-ignored"],
        tests(parse::nextest, "nextest"), prose: ["nextest", "cargo nextest"], "cargo nextest run"),
    tool!("cargo-build", "cargo-build", Build, ["cargo"], r::cargo_build, filters: [],
        Output::Check(checks::rustc), prose: ["cargo build"], "cargo build --release"),
    tool!("cargo-check", "cargo-build", Build, ["cargo"], r::cargo_check, filters: [],
        Output::Check(checks::rustc), prose: ["cargo check"], "cargo check --all-targets"),
    tool!("clippy", "clippy", Lint, ["cargo", "cargo-clippy"], r::clippy, filters: [],
        Output::Check(checks::rustc), prose: ["clippy", "cargo clippy"], "cargo clippy --all-targets -- -D warnings"),
    tool!("rustfmt", "rustfmt", Lint, ["cargo", "rustfmt"], r::rustfmt, filters: [],
        Output::ExitStatus, prose: ["rustfmt", "cargo fmt"], "cargo fmt --all -- --check"),
    tool!("cargo-lint", "cargo-lint", Lint, ["cargo"], r::cargo_lint, filters: [],
        Output::ExitStatus, prose: ["cargo deny", "cargo audit"], "cargo deny check"),
    tool!("cargo-make", "make", Package, ["cargo"], r::cargo_make, filters: [],
        Output::ExitStatus, prose: ["cargo make"], "cargo make test"),
    // Go.
    tool!("go-test", "go-test", Test, ["go"], r::go_test, filters: ["-run", "-skip"],
        tests(go_any, "go"), prose: ["go test", "go tests"], "go test ./..."),
    tool!("go-build", "go-build", Build, ["go"], r::go_build, filters: [],
        Output::Check(checks::go), prose: ["go build"], "go build ./..."),
    tool!("go-vet", "go-vet", Lint, ["go"], r::go_vet, filters: [],
        Output::Check(checks::go), prose: ["go vet"], "go vet ./..."),
    tool!("golangci-lint", "golangci-lint", Lint, ["golangci-lint"], r::golangci_lint, filters: [],
        Output::Check(checks::golangci_lint), prose: ["golangci-lint", "golangci"], "golangci-lint run ./..."),
    tool!("staticcheck", "staticcheck", Lint, ["staticcheck", "revive", "errcheck"], r::always_lint, filters: [],
        Output::ExitStatus, prose: ["staticcheck"], "staticcheck ./..."),
    tool!("gofmt", "gofmt", Lint, ["gofmt"], r::gofmt, filters: [],
        Output::ExitStatus, prose: ["gofmt"], "gofmt -l ."),
    // Python.
    tool!("pytest", "pytest", Test, ["pytest", "py.test"], r::pytest,
        filters: ["-k", "-m", "--lf", "--last-failed", "--deselect", "--ignore"],
        tests(parse::pytest, "pytest"), prose: ["pytest", "py.test"], "python -m pytest -q"),
    tool!("unittest", "unittest", Test, ["unittest"], r::unittest, filters: [],
        tests(parse::unittest, "unittest"), prose: ["unittest"], "python3 -m unittest"),
    tool!("tox", "tox", Package, ["tox"], r::tox, filters: ["-e"],
        Output::ExitStatus, prose: ["tox"], "tox -e py312"),
    tool!("nox", "nox", Package, ["nox"], r::nox, filters: ["-s"],
        Output::ExitStatus, prose: ["nox"], "nox -s tests"),
    tool!("mypy", "mypy", Lint, ["mypy", "dmypy"], r::always_lint, filters: [],
        Output::Check(checks::mypy), prose: ["mypy"], "mypy src"),
    tool!("pyright", "pyright", Lint, ["pyright", "basedpyright"], r::always_lint, filters: [],
        Output::Check(checks::pyright), prose: ["pyright", "basedpyright"], "npx pyright src"),
    tool!("ruff", "ruff", Lint, ["ruff"], r::ruff, filters: [],
        Output::Check(checks::ruff), prose: ["ruff"], "uv run ruff check ."),
    tool!("py-compile", "py-compile", Build, ["py_compile", "compileall"], r::py_compile, filters: [],
        Output::Check(checks::py_compile), prose: ["py_compile", "compileall"], "python -m compileall -q src"),
    tool!("flake8", "flake8", Lint, ["flake8", "pylint", "pyflakes", "pycodestyle", "pydocstyle", "bandit", "vulture", "pytype", "pyre", "ty"], r::always_lint, filters: [],
        Output::ExitStatus, prose: ["flake8", "pylint"], "flake8 src"),
    tool!("black", "black", Lint, ["black", "isort"], r::py_formatter, filters: [],
        Output::ExitStatus, prose: ["black", "isort"], "black --check ."),
    tool!("pre-commit", "pre-commit", Lint, ["pre-commit"], r::pre_commit, filters: [],
        Output::ExitStatus, prose: ["pre-commit"], "pre-commit run --all-files"),
    tool!("hatch", "python-run", Package, ["hatch"], r::python_project_run, filters: [],
        Output::ExitStatus, prose: [], "hatch run test"),
    tool!("pdm", "python-run", Package, ["pdm"], r::python_project_run, filters: [],
        Output::ExitStatus, prose: [], "pdm run lint"),
    tool!("rye", "python-run", Package, ["rye"], r::python_project_run, filters: [],
        Output::ExitStatus, prose: [], "rye run test"),
    // JavaScript and TypeScript.
    tool!("jest", "jest", Test, ["jest"], r::jest,
        filters: ["-t", "--testNamePattern", "--testPathPattern", "--onlyChanged", "--shard"],
        tests(jest_any, "jest"), prose: ["jest"], "npx jest"),
    tool!("vitest", "vitest", Test, ["vitest"], r::vitest,
        filters: ["-t", "--testNamePattern", "--project", "--shard", "--changed"],
        tests(parse::vitest, "vitest"), prose: ["vitest"], "npx vitest run"),
    tool!("mocha", "mocha", Test, ["mocha"], r::mocha, filters: ["--grep", "-g", "--fgrep", "--spec"],
        tests(parse::mocha, "mocha"), prose: ["mocha"], "npx mocha"),
    tool!("js-test", "js-test", Test, ["ava", "tap", "jasmine", "karma", "c8", "nyc"], r::mocha, filters: ["--match", "--grep"],
        Output::ExitStatus, prose: ["ava", "jasmine", "karma"], "npx ava"),
    tool!("playwright", "playwright", Test, ["playwright", "cypress"], r::playwright, filters: ["--grep", "-g", "--project", "--spec"],
        tests(parse::playwright, "playwright"), prose: ["playwright", "cypress"], "npx playwright test"),
    tool!("bun-test", "bun-test", Test, ["bun"], r::bun_test, filters: ["-t", "--test-name-pattern"],
        tests(parse::bun, "bun"), prose: ["bun test"], "bun test"),
    tool!("bun", "bun", Package, ["bun"], r::bun_run, filters: [],
        Output::Script, prose: ["bun run"], "bun run test"),
    tool!("deno-test", "deno-test", Test, ["deno"], r::deno_test, filters: ["--filter"],
        tests(parse::deno, "deno"), prose: ["deno test"], "deno test"),
    tool!("deno", "deno", Package, ["deno"], r::deno_task, filters: [],
        Output::ExitStatus, prose: ["deno task"], "deno task test"),
    tool!("deno-check", "tsc", Build, ["deno"], r::deno_check, filters: [],
        Output::Check(checks::tsc), prose: ["deno check"], "deno check main.ts"),
    tool!("deno-lint", "deno-lint", Lint, ["deno"], r::deno_lint, filters: [],
        Output::ExitStatus, prose: ["deno lint"], "deno lint"),
    tool!("tsc", "tsc", Build, ["tsc", "vue-tsc", "svelte-check", "tsgo"], r::tsc, filters: [],
        Output::Check(checks::tsc), prose: ["tsc", "typescript compiler", "vue-tsc"], "npx tsc --noEmit"),
    tool!("js-bundler", "js-bundler", Build, ["webpack", "esbuild", "rollup", "parcel", "tsup", "vite", "next", "nuxt", "astro"], r::js_bundler, filters: [],
        Output::ExitStatus, prose: ["webpack", "esbuild", "vite build"], "npx vite build"),
    tool!("eslint", "eslint", Lint, ["eslint"], r::always_lint, filters: [],
        Output::Check(checks::eslint), prose: ["eslint"], "npx eslint . --max-warnings=0"),
    tool!("js-lint", "js-lint", Lint, ["stylelint", "tslint", "oxlint", "standard", "xo", "jshint"], r::always_lint, filters: [],
        Output::ExitStatus, prose: ["stylelint", "oxlint"], "npx stylelint '**/*.css'"),
    tool!("prettier", "prettier", Lint, ["prettier"], r::prettier, filters: [],
        Output::ExitStatus, prose: ["prettier"], "npx prettier --check ."),
    tool!("biome", "biome", Lint, ["biome"], r::biome, filters: [],
        Output::ExitStatus, prose: ["biome"], "npx biome check ."),
    tool!("npm", "npm", Package, ["npm"], r::npm, filters: ["-w", "--workspace"],
        Output::Script, prose: ["npm test", "npm run"], "npm run typecheck"),
    tool!("pnpm", "npm", Package, ["pnpm"], r::npm, filters: ["--filter", "-F"],
        Output::Script, prose: ["pnpm test"], "pnpm test"),
    tool!("yarn", "npm", Package, ["yarn"], r::npm, filters: ["-w", "--workspace"],
        Output::Script, prose: ["yarn test"], "yarn test"),
    tool!("turbo", "turbo", Package, ["turbo"], r::monorepo, filters: ["--filter"],
        Output::ExitStatus, prose: ["turbo"], "turbo run lint"),
    tool!("lerna", "lerna", Package, ["lerna"], r::monorepo, filters: ["--scope"],
        Output::ExitStatus, prose: ["lerna"], "lerna run test"),
    tool!("nx", "nx", Package, ["nx"], r::monorepo, filters: ["--projects"],
        Output::ExitStatus, prose: ["nx"], "nx run-many -t test"),
    // Ruby.
    tool!("rspec", "rspec", Test, ["rspec"], r::rspec, filters: ["-e", "--example", "-t", "--tag", "--only-failures"],
        tests(parse::rspec, "rspec"), prose: ["rspec", "specs"], "bundle exec rspec"),
    tool!("minitest", "minitest", Test, ["rails", "ruby"], r::minitest, filters: ["-n", "--name"],
        tests(parse::minitest, "minitest"), prose: ["minitest", "rails test"], "bin/rails test"),
    tool!("rake", "rake", Package, ["rake"], r::rake, filters: [],
        Output::ExitStatus, prose: ["rake"], "bundle exec rake test"),
    tool!("rubocop", "rubocop", Lint, ["rubocop", "standardrb"], r::always_lint, filters: [],
        Output::ExitStatus, prose: ["rubocop", "standardrb"], "bundle exec rubocop"),
    // PHP.
    tool!("phpunit", "phpunit", Test, ["phpunit", "pest", "paratest", "php"], r::phpunit,
        filters: ["--filter", "--testsuite", "--group"],
        tests(parse::phpunit, "phpunit"), prose: ["phpunit", "pest"], "vendor/bin/phpunit"),
    tool!("phpstan", "phpstan", Lint, ["phpstan", "psalm", "phpcs", "php-cs-fixer"], r::php_lint, filters: [],
        Output::ExitStatus, prose: ["phpstan", "psalm"], "vendor/bin/phpstan analyse"),
    tool!("composer", "composer", Package, ["composer"], r::npm, filters: [],
        Output::ExitStatus, prose: ["composer test"], "composer test"),
    // The JVM.
    tool!("maven", "junit", Test, ["mvn", "mvnw"], r::maven, filters: ["-Dtest", "-pl", "--projects"],
        tests(maven_any, "junit"), prose: ["maven", "mvn test", "mvn", "surefire", "junit"], "./mvnw -q test"),
    tool!("gradle", "junit", Test, ["gradle", "gradlew"], r::gradle, filters: ["--tests"],
        tests(parse::gradle, "gradle"), prose: ["gradle", "gradlew"], "./gradlew test"),
    tool!("ktlint", "ktlint", Lint, ["ktlint"], r::always_lint, filters: [],
        Output::Check(checks::ktlint), prose: ["ktlint"], "ktlint 'src/**/*.kt'"),
    tool!("detekt", "detekt", Lint, ["detekt", "detekt-cli"], r::always_lint, filters: [],
        Output::Check(checks::detekt), prose: ["detekt"], "detekt --input src"),
    tool!("jvm-lint", "jvm-lint", Lint, ["checkstyle"], r::always_lint, filters: [],
        Output::ExitStatus, prose: ["checkstyle"], "checkstyle -c checks.xml src"),
    tool!("sbt", "sbt", Test, ["sbt"], r::sbt, filters: ["testOnly", "testQuick"],
        Output::ExitStatus, prose: ["sbt"], "sbt test"),
    tool!("jvm-compile", "jvm-compile", Build, ["javac", "kotlinc"], r::always_build, filters: [],
        Output::ExitStatus, prose: ["javac"], "javac -d out src/App.java"),
    // .NET.
    tool!("dotnet-test", "dotnet-test", Test, ["dotnet"], r::dotnet_test, filters: ["--filter"],
        tests(parse::dotnet, "dotnet"), prose: ["dotnet test", "xunit", "nunit", "mstest"], "dotnet test"),
    tool!("dotnet-build", "dotnet-build", Build, ["dotnet", "msbuild"], r::dotnet_build, filters: [],
        Output::Check(checks::msbuild), prose: ["dotnet build", "msbuild"], "dotnet build"),
    // C, C++ and native toolchains.
    tool!("ctest", "ctest", Test, ["ctest", "cmake"], r::ctest, filters: ["-R", "--tests-regex", "-L", "-E"],
        tests(parse::ctest, "ctest"), prose: ["ctest"], "ctest --output-on-failure"),
    tool!("cmake-build", "cmake-build", Build, ["cmake", "ninja", "msbuild", "xcodebuild", "meson"], r::cmake_build, filters: [],
        Output::ExitStatus, prose: ["cmake", "ninja"], "cmake --build build"),
    tool!("meson-test", "meson-test", Test, ["meson"], r::meson_test, filters: [],
        Output::ExitStatus, prose: ["meson test"], "meson test -C build"),
    tool!("cc", "cc", Build, ["gcc", "g++", "cc", "c++", "clang", "clang++", "rustc"], r::always_build, filters: [],
        Output::ExitStatus, prose: ["gcc", "clang"], "gcc -o app main.c"),
    tool!("native-lint", "native-lint", Lint, ["clang-tidy", "cppcheck", "cpplint", "shellcheck", "hadolint", "markdownlint", "markdownlint-cli2", "yamllint", "actionlint", "tflint", "luacheck", "swiftlint"], r::always_lint, filters: [],
        Output::ExitStatus, prose: ["shellcheck", "clang-tidy", "swiftlint", "hadolint"], "shellcheck scripts/*.sh"),
    tool!("clang-format", "clang-format", Lint, ["clang-format"], r::clang_format, filters: [],
        Output::ExitStatus, prose: ["clang-format"], "clang-format --dry-run src/a.c"),
    tool!("make", "make", Package, ["make", "gmake"], r::make, filters: ["TEST=", "FILTER="],
        Output::Check(checks::make), prose: ["make test", "make check", "make"], "make -C backend check"),
    tool!("just", "make", Package, ["just"], r::make, filters: [],
        Output::ExitStatus, prose: ["just"], "just test"),
    tool!("task", "make", Package, ["task", "mage"], r::make, filters: [],
        Output::ExitStatus, prose: ["taskfile"], "task test"),
    // Swift, Elixir and other languages.
    tool!("swift-test", "swift-test", Test, ["swift"], r::swift_test, filters: ["--filter", "--skip"],
        tests(parse::swift, "swift"), prose: ["swift test", "xctest", "swift testing"], "swift test"),
    tool!("swift-build", "swift-build", Build, ["swift"], r::swift_build, filters: [],
        Output::ExitStatus, prose: ["swift build"], "swift build"),
    tool!("mix-test", "mix-test", Test, ["mix"], r::mix_test, filters: ["--only", "--exclude"],
        tests(parse::exunit, "exunit"), prose: ["mix test", "exunit"], "mix test"),
    tool!("mix", "mix", Build, ["mix"], r::mix_other, filters: [],
        Output::ExitStatus, prose: ["mix compile", "credo"], "mix compile"),
    tool!("other-lang", "other-lang", Test, ["stack", "cabal", "zig", "dart", "flutter"], r::sub_test_build, filters: [],
        Output::ExitStatus, prose: ["cabal test", "zig build", "flutter test"], "zig build test"),
    // Version control.
    tool!("git", "git", Vcs, ["git"], r::git, filters: [],
        Output::Git, prose: ["git"], "git commit -am 'fix'"),
];
