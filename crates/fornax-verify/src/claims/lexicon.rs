//! The words claims are made of, as regular expressions over lower-cased prose whose inline
//! code has been blanked out (so a word inside `` `...` `` never counts).
//!
//! Every pattern uses word boundaries. Typographic apostrophes are accepted wherever a
//! contraction is.

use std::sync::LazyLock;

use super::pattern::Pattern;

use super::vocab;
use crate::commands::CommandKind;

fn re(pattern: &str) -> Pattern {
    // The patterns are constants of this module; the tests compile every one of them.
    Pattern::new(pattern).unwrap_or_else(|_| Pattern::new("$^").expect("empty pattern compiles"))
}

macro_rules! pattern {
    ($name:ident, $re:expr) => {
        pub static $name: LazyLock<Pattern> = LazyLock::new(|| re($re));
    };
}

// Phrases that report success with a negative word in them (`no issues`, `0 failed`); they
// are success predicates and shield their words from the negation and failure markers.
pattern!(
    OK_PHRASE,
    r"(?x)
    \b(?:no|zero|0|without(?:\s+any)?|with\s+(?:no|zero|0))\s+
        (?:new\s+|remaining\s+|more\s+|further\s+|test\s+|lint\s+|linter\s+|type\s+|typing\s+|compile\s+|compiler\s+|compilation\s+|build\s+|clippy\s+|eslint\s+|mypy\s+|tsc\s+)*
        (?:sanitizer\s+|asan\s+|ubsan\s+|valgrind\s+)?
        (?:failures?|failing(?:\s+tests?)?|failed(?:\s+tests?)?|errors?|warnings?|issues?|problems?|complaints?|findings?|regressions?|diagnostics?|offen[cs]es?|violations?|lints?|crash(?:es)?|leaks?|panics?)\b
    | \bnothing\s+(?:failed|fails|broke|regressed|flagged|found|reported|to\s+report|to\s+fix|to\s+flag|to\s+complain\s+about)\b
    | \b(?:reports?|reported|found|finds|flags?|flagged|shows?|showed|prints?|printed)\s+nothing\b
    | \bnone\s+(?:of\s+them\s+)?(?:failed|fail)\b
    | \bno\s+longer\s+(?:fails?|failing|errors?|panics?|crash(?:es)?|breaks?|flakes?|flaky)\b
    | \ball\s+checks\s+passed\b
    | \bnot\s+a\s+single\s+(?:failure|error|warning)\b
    | [✅✔☑]
    "
);

// Phrases that look negative or failing but are neither: counts of skipped tests, `as
// expected`, `no code change`, errors that were fixed.
pattern!(
    NEUTRAL,
    r"(?x)
    \bas\s+expected\b
    | \bno\s+(?:code\s+|source\s+|other\s+|further\s+|functional\s+|behaviou?ral\s+)?changes?\b
    | \bwithout\s+(?:any\s+)?(?:code\s+|source\s+|other\s+|functional\s+|behaviou?ral\s+)?changes?\b
    | \bwithout\s+(?:changing|touching|modifying)\b
    | \b\d+\s+(?:[a-z][\w-]*\s+)?(?:tests?\s+)?(?:skipped|deselected|ignored|pending|todo|xfailed|filtered(?:\s+out)?|excluded)\b
    | \b(?:previously|formerly|originally|earlier)[-\s]+(?:failing|broken|failed)\b
    | \b(?:fix(?:ed|es|ing)?|resolv(?:ed|es|ing)|address(?:ed|es|ing)|correct(?:ed|ing)|remov(?:ed|es|ing)|eliminat(?:ed|es|ing)|clean(?:ed|ing)\s+up|silenc(?:ed|es|ing)|handl(?:ed|es|ing)|after)\s+
        (?:(?:the|all|both|those|these|its|their|a|an|one|two|three|four|five|remaining|\d+|`x*`|[a-z][\w-]*)\s+){0,3}
        (?:failures?|errors?|failing\s+tests?|flak(?:y|iness|es)(?:\s+tests?)?|warnings?|regressions?|issues?|breakages?|panics?|crash(?:es)?|leaks?|bugs?|lints?)\b
    | \b(?:failure|error)\s+(?:case|cases|mode|modes|path|paths|handling|message|messages|type|types|variant|variants|branch|code|codes)\b
    | \bfail[-\s](?:fast|safe|over)\b
    | \bregression[-\s]+(?:tests?|cases?|suites?|coverage|checks?|specs?)\b
    | \bfor\s+(?:the|this|that|a|each)\s+(?:[\w-]+\s+)?regression\b
    | \b(?:was|were|had\s+been)\s+flaky\s+(?:once|twice|earlier|before|at\s+first|in\s+one\s+run)\b
    | \b(?:raised|lowered|increased|decreased|reduced|set|bumped|changed|adjusted|extended|shortened|configured|tuned|doubled|halved)\s+(?:the\s+|a\s+|its\s+|their\s+)?(?:[\w-]+\s+)?time[-\s]?outs?\b
    | \btime[-\s]?outs?\s+(?:to|from|of|value|setting|config|option|parameter)\b
    | \bflaked\s+(?:once|twice|earlier|before|at\s+first)\b
    | \bfailing\s+(?:tests?|specs?|cases?|checks?|assertions?)\b[^.;]{0,60}?(?:\bnow\s+pass(?:es)?\b|\bpass(?:es)?\s+now\b|\b(?:is|are)\s+(?:now\s+)?(?:fixed|green|passing)\b)
    | \b(?:tests?|specs?|cases?|coverage)\s+for\s+(?:the\s+|an?\s+)?(?:[\w`-]+\s+){0,2}?(?:errors?|failures?|failing\s+\w+|panics?|crash(?:es)?|regressions?|leaks?)\b
    | \bunless\s+overridden\b
    | \bhappy[-\s]+paths?\b
    | \b(?:describing|about|regarding|covering|titled|reporting|documenting|tracking)\s+(?:the\s+|a\s+|an\s+|this\s+)?(?:[\w-]+\s+){0,3}?(?:failures?|failing|flak\w*|crash\w*|errors?|bugs?|leaks?|regressions?|panics?|timeouts?|breakages?)\b
    | \b(?:error|failure)[-\s]+handling\b
    "
);

pattern!(
    FAILURE,
    r"(?x)
    \b(?:fail(?:s|ed|ing|ure|ures)?|broken|breaks|broke|errors?|errored|panic(?:s|ked|king)?|crash(?:es|ed|ing)?
        |leak(?:s|ed|ing)?|regress(?:ed|es|ion|ions)?|flak(?:y|iness|es)|timed\s+out|times\s+out|timeout|hangs|hung
        |aborted|segfault(?:s|ed)?|red|except|apart\s+from|other\s+than|aside\s+from|remain(?:s|ing)?\s+(?:open|failing|broken))\b
    | [❌✗✘]
    "
);

pattern!(
    NEGATION,
    r"\b(?:not|never|no|none|nothing|neither|nor|cannot|unable|without|skipped|skipping)\b|\b\w+n['’]t\b"
);

pattern!(
    HEDGE,
    r"(?x)
    \b(?:should|shouldn['’]t|would|could|might|may|maybe|perhaps|probably|likely|unlikely|hopefully|presumably|possibly
        |supposedly|ideally|expect(?:s|ed|ing)?|assum(?:e|es|ed|ing)|seem(?:s|ed|ingly)?|appear(?:s|ed)?|looks?\s+like
        |if|unless|whether|until|i\s+think|i\s+believe|i\s+guess|in\s+theory|ought|hope|pending|unverified|unconfirmed|tbd)\b
    | \b(?:when|whenever|once)\s+(?:the\s+|a\s+|an\s+|all\s+)?[\w-]+(?:\s+[\w-]+)?\s+(?:pass|passes|succeeds?|is\s+green|are\s+green|completes?)\b
    "
);

pattern!(
    FUTURE,
    r"(?x)
    \b(?:will|shall|i['’]ll|we['’]ll|it['’]ll|that['’]ll|let\s+me|let['’]s|going\s+to|gonna|needs?\s+to|have\s+to|has\s+to|must
        |next|todo|to-do|plans?\s+to|planning\s+to|about\s+to|wants?\s+to|please|you\s+can|you\s+could|you\s+should|you\s+may
        |you\s+might|try(?:ing)?\s+to|attempt(?:ing)?\s+to|in\s+order\s+to|once\s+(?:ci|you|we|the\s+ci))\b
    "
);

pattern!(
    HISTORY,
    r"(?x)
    \b(?:previously|initially|originally|at\s+first|used\s+to|before\s+(?:my|the|this|these|that|your)\s+(?:change|changes|edit|edits|fix|fixes|refactor|patch|update))\b
    | \b(?:most\s+recent|previous|last|earlier|upstream|original|initial|existing|prior)\s+(?:commits?|changes?|prs?|pull\s+requests?|patch(?:es)?|versions?|releases?|fix(?:es)?)\b
    | \b(?:in|from|by|per|following|like)\s+(?:the\s+)?(?:upstream\s+)?commit\s+`x*`
    "
);

// Someone else's words: the user's, a ticket's, a document's.
pattern!(
    REPORTED,
    r"(?x)
    \b(?:you|the\s+user|user)\s+(?:said|say|asked|wrote|mentioned|claimed|reported|noted|stated|wanted|requested)\b
    | \baccording\s+to\b
    | \bthe\s+(?:task|issue|ticket|readme|docs?|documentation|spec|description|pr\s+description|changelog|prompt)\s+(?:says|said|claims|states|mentions|notes|reports)\b
    | \b(?:the\s+|this\s+)?(?:task|issue|ticket|spec|specification|requirement|story|user\s+story|pr|acceptance\s+criteri(?:on|a))\s+(?:requires?|required|expects?|expected|wants?|wanted|asks?|asked\s+for|demands?)\b
    "
);

// Text after these is a purpose or a description of what code does, not a report.
pattern!(
    PURPOSE,
    r"(?x)
    \b(?:to\s+(?:make\s+sure|ensure|verify|confirm|check|see|validate|prove|double-check)|so\s+that|in\s+order\s+to
        |(?:that|which)\s+(?:verif(?:y|ies)|checks?|ensures?|asserts?|covers?|tests?|exercises?|makes\s+sure))\b
    "
);

pattern!(
    IMPERATIVE_START,
    r"^(?:run|rerun|re-run|make\s+sure|ensure|verify|check|try|consider|remember|don['’]t|do\s+not|please|feel\s+free|go\s+ahead)\b"
);

// Success predicates.
pattern!(PASS_WORD, r"\bpass(?:es|ed)?\b");
pattern!(
    PASS_NOT_FOLLOWED_BY,
    r"^\s+(?:a|an|the|into|through|to|along|as\s+(?:a|an|the|argument|parameter)|over|by|it|them|its|their|this|that|these|those|each|every|any|some|my|our|your|his|her|down|back|around|off|out|up|arguments?|args|values?|flags?|options?|data|parameters?|params|control|ownership|ref|refs|references?|null|none|true|false|via|across|between)\b|^\s+`x*`|^\s+in\s+(?:via|as|from|through|to)\b|^\s+[a-z][\w-]*\s+(?:into|to|through|along|down|as|via)\b"
);
pattern!(
    PASSING,
    r"\b(?:are|is|were|was|all|now|still|keep|keeps|kept|be|been|tests?|specs?|suites?|everything)\s+(?:now\s+|all\s+|still\s+)?passing\b|\bpassing\s+(?:now|again|locally|cleanly)\b|\)\s+passing\b|\bpassing\s+\d+(?:\s*/\s*\d+)?\b|\bwith\s+(?:all\s+)?(?:tests?|specs?|checks?)\s+passing\b"
);
pattern!(
    GREEN,
    r"\b(?:green|happy|clean|cleanly|satisfied|silent|quiet)\b|(?:\b(?:is|are|was|were|all|everything|comes?\s+back|came\s+back|returned|returns|reports?|reported)\s+|:\s*|[—–]\s*|\s-\s+|\(\s*)(?:ok|okay)\b"
);
pattern!(
    SUCCEED,
    r"\b(?:succeed(?:s|ed)?|successful(?:ly)?|completes?\s+successfully|completed\s+successfully|went\s+through|goes\s+through)\b|\bworks\s+(?:again|now|fine|correctly|cleanly)\b|\bworks\s*[.!]?\s*$|\b(?:is|are)\s+working\s+(?:again|now)\b"
);
pattern!(
    EXIT_ZERO,
    r"(?x)
    \bexit(?:s|ed)?\s+(?:with\s+)?(?:code\s+|status\s+)?(?:0|zero)\b
    | \bexit\s+(?:code|status)\s+(?:of\s+|was\s+|is\s+|=\s*)?(?:0|zero)\b
    | \breturn(?:s|ed)?\s+(?:0|zero)\b
    | \bexit(?:s|ed)?\s+cleanly\b
    | \b(?:ran|runs|run|executed|executes|completes?|completed|finished|finishes|cloned|installed|deployed|applied|migrated)\s+(?:successfully|cleanly|without\s+(?:any\s+)?errors?)\b
    "
);
pattern!(
    COUNT_PASS,
    r"\b\d+\s*(?:/\s*\d+\s+)?(?:(?:unit|integration|e2e|tests?|specs?|examples?|cases?|checks?)\s+)*(?:passed|passing|pass|ok|succeeded|green)\b"
);
// What may follow "builds"/"compiles" when it reports a build, not code that builds things.
pattern!(
    BUILD_VERB_FOLLOW,
    r"^(?:\s*[.,;:!)]|\s*$|\s+(?:successfully|cleanly|fine|again|now|without|with\s+(?:no|zero|0)|on|in|for|locally|correctly|ok|green|too|as\s+well|under|against|after|across|here|there|both|all|with\s+the|and|but|then|so|while|yet|plus)\b)"
);
pattern!(
    BUILDS_VERB,
    r"\b(?:builds|compiles|typechecks|type-checks|type\s+checks|built\s+(?:successfully|cleanly|fine|without)|compiled\s+(?:successfully|cleanly|fine|without))\b"
);

// Subjects.
/// Test words, and the prose names of test tools ([`super::vocab`]).
pub static TEST_WORD: LazyLock<Pattern> = LazyLock::new(|| {
    re(&format!(
        r"\b(?:tests?|testsuite|test\s+suite|suites?|specs?|test\s+cases?|unit\s+tests?|e2e|integration\s+tests?|smoke\s+tests?|{}|(?:go|cargo|npm|pnpm|yarn|bun|deno|dotnet|swift|mix|make)\s+test)\b",
        vocab::alternation(CommandKind::Test)
    ))
});
pattern!(
    PACKAGE_WORD,
    r"\b(?:packages?|crates?|modules?|workspaces?|everything|all)\b"
);
pattern!(
    BUILD_WORD,
    r"\b(?:build|builds|built|syntax[\s-]+checks?|compil(?:e|es|ed|ation|er|ing)|typecheck(?:s|ed|ing|er)?|type-check(?:s|ed|ing|er)?|type\s+check(?:s|ed|ing|er)?|types?\s+check|tsc)\b"
);
/// Lint words, and the prose names of lint tools ([`super::vocab`]).
pub static LINT_WORD: LazyLock<Pattern> = LazyLock::new(|| {
    re(&format!(
        r"\b(?:lint|lints|linter|linters|linting|linted|vet|fmt|formatting|formatter|format\s+check|style\s+check|static\s+analysis|tslint|{})\b",
        vocab::alternation(CommandKind::Lint)
    ))
});
pattern!(
    PRONOUN,
    r"\b(?:it|they|both|all\s+of\s+them|these|those|everything|each)\b"
);

// Actions.
pattern!(
    RAN,
    r"\b(?:ran|re-?ran|executed|invoked|(?:have|has|had|i['’]ve|we['’]ve)\s+(?:also\s+|now\s+|just\s+|already\s+)?(?:run|executed|invoked|re-?run))\b"
);
pattern!(
    RAN_GAP,
    r"^(?:\s+(?:also|again|both|just|then|the|command|script|a|full|whole|entire|quick|final|with|once|twice|too))*\s*$"
);
pattern!(
    FILE_VERB,
    r"(?x)
    \b(?:created|added|updated|wrote|written|rewrote|rewritten|modified|edited|changed|fixed|patched|moved|renamed|refactored
        |implemented|introduced|extended|adjusted|tweaked|touched|saved|generated|regenerated|replaced|converted|migrated
        |extracted|adapted|deleted|removed|restructured|reorgani[sz]ed|simplified|cleaned\s+up|documented|amended|inserted
        |appended|populated|bumped|pinned|scaffolded|stubbed|wired|reworked|rewired|overhauled|corrected|tightened|hardened
        |expanded|split|put|placed|dropped|mirrored|ported|applied|reverted|copied|guarded|shortened
        |reworded|annotated|erased|purged|tidied|raised|lowered|increased|decreased|reduced|loosened|relaxed
        |enabled|disabled|reordered|deduplicated|inlined|swapped|switched|trimmed|polished|cleaned|registered|made)\b
    | \bnew\s+(?:files?|modules?|tests?|test\s+files?|scripts?)\s*:
    | ^[\s*_]*(?:(?:this|that|it)\s+is\s+|(?:by\s+)?applying\s+)?(?:(?:the|my|a|an|one|key|main|small|minimal|same|defensive|targeted)\s+)*
        (?:changes?|edits?|fix(?:es)?|guards?|patch(?:es)?|modifications?)\s+(?:made\s+|applied\s+)?(?:in|to)\b
    | ^[\s*_]*fix(?:es)?\s*:
    "
);
pattern!(
    PASSIVE_FILE,
    r"^(?:\s+[a-z][\w-]*){0,2}?\s+(?:(?:was|were|is|are|has\s+been|have\s+been|got|gets|now)\s+)+(?:also\s+|now\s+)?(?:created|added|updated|written|rewritten|modified|edited|changed|fixed|patched|moved|renamed|refactored|deleted|removed|generated|regenerated|in\s+place)\b"
);
pattern!(
    COMMITTED,
    r"(?x)
    \b(?:committed|re-?committed|commited)\b
    | \b(?:created|made|added|recorded|landed)\s+(?:a\s+|the\s+|one\s+|two\s+|\d+\s+|new\s+|single\s+|fixup\s+)*commits?\b
    | \bcommit(?:ted)?\s+(?:is|was)\s+(?:created|made|in|done)\b
    | ^\s*commit(?:ted)?\s*:\s*`x*`
    "
);
pattern!(
    PUSHED,
    r"\b(?:pushed|force-pushed|force\s+pushed|push(?:ed)?\s+(?:succeeded|went\s+through|is\s+done|completed))\b"
);

// Partial success: the clause admits that not everything passed ("most tests pass", "all but
// two", "the remaining failures are unrelated").
pattern!(
    PARTIAL,
    r"(?x)
    \b(?:most|majority\s+of|almost\s+all|nearly\s+all|all\s+but|all\s+except|some\s+of|some|several|a\s+few|a\s+couple\s+of
        |half\s+of|the\s+rest\s+of)
        (?:\s+of)?(?:\s+(?:the|our|my|these|those))?(?:\s+[\w-]+){0,2}?
        \s+(?:tests?|specs?|suites?|checks?|cases?|packages?|crates?|modules?|them|pass(?:es|ed|ing)?|green|failures?|errors?)\b
    | \bmostly\s+(?:green|passing|clean|ok|fine|working)\b
    | \ball\s+(?:but|except|save)\s+(?:one|two|three|four|five|six|a\s+few|a\s+couple|\d+)\b
    | \b(?:partially|partly|pre-?existing|unrelated|not\s+related|otherwise)\b
    | \b(?:the\s+)?(?:remaining|other)\s+(?:failures?|errors?|issues?|warnings?|ones?)\b
    "
);

// Verbs that delete a file when the path is their object.
pattern!(
    DELETE_VERB,
    r"\b(?:deleted|removed|dropped|erased|purged|pruned|unlinked|trashed|got\s+rid\s+of)\b"
);
pattern!(
    DELETE_PASSIVE,
    r"^(?:\s+[a-z][\w-]*){0,2}?\s+(?:(?:was|were|is|are|has\s+been|have\s+been|got|gets|now)\s+)+(?:also\s+|now\s+)?(?:deleted|removed|dropped|erased|purged)\b"
);
// What may stand between a delete verb and the path it deletes ("deleted the obsolete `x`").
pattern!(
    DELETE_GAP,
    r"^(?:\s+(?:the|a|an|old|older|obsolete|unused|stale|legacy|dead|temporary|temp|redundant|duplicate|duplicated|empty|generated|now-unused|leftover|orphaned|broken|outdated|deprecated|previous|original|file|files|script|scripts|directory|folder|test|config|also|both))*\s*$"
);
// A file-like object of a delete verb written without a path ("removed the old scripts").
pattern!(
    DELETED_FILES_NOUN,
    r"^(?:\s+(?:the|a|an|old|older|obsolete|unused|stale|legacy|dead|temporary|temp|redundant|duplicate|generated|leftover|orphaned|outdated|deprecated|two|three|four|five|all|both|\d+))*\s+(?:files|scripts|folders|directories|dirs|fixtures|backups|(?:[a-z][\w-]*\s+)?(?:file|script|folder|directory))(?:\s*$|\s*[.,;:)]|\s+(?:from|in|under|at|and|that|which|since|because|as|too)\b)"
);

// A sentence that labels itself as a plan or a remainder ("Next steps: ...", "Remaining: ...").
pattern!(
    PLAN_PREFIX,
    r"^[\s*_]*(?:next(?:\s+steps?)?|todo|to\s+do|to-do|follow[- ]?ups?|remaining|left|left\s+to\s+do|still\s+to\s+do|pending|not\s+done|not\s+yet|open|later|plan|proposal|proposed|suggestions?|recommendations?|recommended|optional|ideas?|caveats?|known\s+issues?|limitations?|risks?|blocked)[\s*_]*:"
);

// A line that introduces text the user asked to be written (a poem): what follows is not a
// report.
pattern!(
    CREATIVE_INTRO,
    r"\b(?:poem|haiku|limerick|sonnet|song|lyrics|verse|story|joke|rhyme)s?\b"
);

// The head of a clause that describes someone else's work rather than this session's (an
// upstream PR, a library, the maintainers); followed by an active verb it is a description.
pattern!(
    DESCRIBED_HEAD,
    r"(?x)
    ^[\s*_]*(?:the\s+|their\s+|an?\s+|its\s+)?
    (?:upstream|original|linked|referenced|related|proposed|previous|prior|other|same|merged|open|pending)?\s*
    (?:prs?|pull\s+requests?|commits?|changesets?|maintainers?|upstream|librar(?:y|ies)|frameworks?|vendors?|authors?)
    (?:\s+(?:`x*`|\#?\d+))?
    \s+(?:just\s+|already\s+|also\s+|simply\s+|only\s+|apparently\s+)?
    (?:added|adds|fixed|fixes|introduced|introduces|changed|changes|removed|removes|excluded|excludes|made|makes|updated|updates
        |implemented|implements|switched|switches|moved|moves|rewrote|rewrites|dropped|drops|replaced|replaces|bumped|bumps|deleted|deletes|reverted|reverts)\b
    "
);

// Actions done through a well-known command that the prose names without writing it.
pattern!(
    ACTION,
    r"(?x)
    \b(?:(?P<merge>merged)\s+(?P<mergewhat>`x*`|[a-z0-9_][\w./-]*)\s+(?:into|to|onto)\b
    | (?P<rebase>rebased)\s+(?:`x*`|[a-z0-9_][\w./-]*|the\s+branch|it|this)\s+(?:on|onto)\b
    | (?P<pr>opened|created|raised|filed|submitted)\s+(?:a\s+|the\s+|an\s+)?(?:draft\s+)?(?:pull\s+request|pr)\b
    | (?P<issue>opened|created|filed|raised)\s+(?:a\s+|the\s+|an\s+|new\s+)*issue\b
    | (?P<comment>commented)\s+on\s+(?:the\s+|this\s+|that\s+)?(?P<on>issue|pr|pull\s+request)\b
    | (?P<code>opened)\s+(?P<codewhat>`x*`|it|them)\s+in\s+(?:vs\s*code|vscode|code)\b
    )
    "
);

// A commit named as a noun ("my teammate's commit `4d5e6f7`").
pattern!(COMMIT_NOUN, r"\bcommits?\b");

// A task from a checklist that is marked done ("**Update CHANGELOG.md** - Already done").
pattern!(
    TASK_VERB,
    r"^[\s*_]*(?P<verb>update|add|create|write|fix|edit|modify|document|delete|remove|rename|move|bump)\b"
);
pattern!(
    DONE_MARK,
    r"\b(?:already\s+done|done|completed|complete|finished)\b|[✅✓✔]"
);

// "Verified the fix by compiling the library": a check done, in words.
pattern!(
    VERIFIED_BY,
    r"\b(?:verified|confirmed|checked|validated|tested)\b[^.;]{0,80}?\bby\s+(?:re-?)?(?:compiling|building|running)\b"
);
// What may stand between a success and the command it is about ("no crash with `make fuzz`").
pattern!(
    SUCCESS_BEFORE_COMMAND,
    r"^\s*(?:(?:with|from|in|on|under|running|when\s+running|after\s+running|via|using|for|of)\s+(?:the\s+)?)?$"
);
// "`node build/index.js` executed": a command run, said in the passive.
pattern!(
    RAN_PASSIVE,
    r"^\s+(?:(?:was|were|has\s+been|have\s+been|got|is|now)\s+)?(?:also\s+)?(?:executed|ran|run|invoked|re-?run)\b"
);
// "Fixed the build break": the build works again.
pattern!(
    BUILD_FIXED,
    r"\b(?:fixed|repaired|restored|unbroke)\s+(?:the\s+)?(?:build|compilation|compile)(?:\s+(?:break|breakage|failure|errors?))?\b|\b(?:build|compilation)\s+(?:is\s+|was\s+)?(?:fixed|restored)\b"
);
// "The repo is live at https://github.com/...": pushed.
pattern!(
    LIVE_AT,
    r"\b(?:repo|repository|branch|code|changes|fix|it)\s+(?:is|are)\s+(?:now\s+)?(?:live|up|available|published)\s+(?:at|on)\b[^\n]{0,12}?(?:https?://)?(?:www\.)?(?:github|gitlab|bitbucket|codeberg)\b"
);
// "... but it passes": something passed, though the clause does not say what.
pattern!(
    IT_PASSES,
    r"(?:^[\s*_]*|\b(?:and|but|so|now|yet)\s+)it\s+(?:now\s+|still\s+|also\s+)?pass(?:es|ed)?(?:\s+(?:now|again|fine|cleanly))?[\s.!)]*$"
);
// "All checks pass": checks that are neither tests, a build nor lint.
pattern!(
    CHECKS_WORD,
    r"\b(?:checks?|pre-?commit(?:\s+checks?)?|ci\s+checks?)\b"
);
// What a command's success is said of when the command is not named.
pattern!(
    RUN_SUBJECT,
    r"\b(?:script|scripts|command|commands|program|binary|migrations?|job|jobs|reproducer|seed|installation|install|deploy(?:ment)?|tool|repos?|repositories|clones?|it)\b"
);
// "builds"/"compiles" used as a noun: after a determiner, an adjective of builds, or a
// preposition one word back ("from GCC builds").
pattern!(
    BUILDS_AS_NOUN,
    r"(?:\b(?:the|our|their|its|your|my|some|any|no|those|these|all|both|nightly|debug|release|incremental|ci|docker|clean|future|later|earlier|previous|subsequent|local|cross|parallel|reproducible|official|gcc|clang|msvc|fuzz|fuzzer|sanitizer|asan)\s+|\b(?:from|in|of|for|on|with|across|between|to|by|during|under|than)\s+[\w-]+\s+)$"
);

pattern!(GIT_TARGET_PREP, r"\b(?:to|on|onto|into|as)\s+(?:the\s+)?$");

pub const REMOTE_NAMES: &[&str] = &[
    "origin",
    "upstream",
    "fork",
    "github",
    "gitlab",
    "remote",
    "mine",
    "heroku",
    "bitbucket",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pattern_compiles() {
        let all: [&LazyLock<Pattern>; 53] = [
            &PARTIAL,
            &DELETE_VERB,
            &DELETE_PASSIVE,
            &DELETE_GAP,
            &DELETED_FILES_NOUN,
            &PLAN_PREFIX,
            &CREATIVE_INTRO,
            &DESCRIBED_HEAD,
            &ACTION,
            &COMMIT_NOUN,
            &TASK_VERB,
            &DONE_MARK,
            &VERIFIED_BY,
            &SUCCESS_BEFORE_COMMAND,
            &RAN_PASSIVE,
            &CHECKS_WORD,
            &RUN_SUBJECT,
            &BUILDS_AS_NOUN,
            &BUILD_FIXED,
            &LIVE_AT,
            &IT_PASSES,
            &TEST_WORD,
            &OK_PHRASE,
            &NEUTRAL,
            &FAILURE,
            &NEGATION,
            &HEDGE,
            &FUTURE,
            &HISTORY,
            &PURPOSE,
            &IMPERATIVE_START,
            &REPORTED,
            &PASS_WORD,
            &PASS_NOT_FOLLOWED_BY,
            &PASSING,
            &GREEN,
            &SUCCEED,
            &EXIT_ZERO,
            &COUNT_PASS,
            &BUILDS_VERB,
            &TEST_WORD,
            &PACKAGE_WORD,
            &BUILD_WORD,
            &LINT_WORD,
            &PRONOUN,
            &RAN,
            &RAN_GAP,
            &FILE_VERB,
            &PASSIVE_FILE,
            &COMMITTED,
            &PUSHED,
            &GIT_TARGET_PREP,
            &OK_PHRASE,
        ];
        for r in all {
            // The fallback pattern `$^` never matches anything; a real pattern has a name.
            assert_ne!(r.as_str(), "$^");
        }
    }

    #[test]
    fn ok_phrases_and_neutral() {
        for s in [
            "no issues",
            "zero warnings",
            "0 failures",
            "with no errors",
            "nothing regressed",
            "no longer fails",
            "no new clippy warnings",
        ] {
            assert!(OK_PHRASE.is_match(s), "{s}");
        }
        for s in [
            "58 skipped",
            "as expected",
            "no code change in between",
            "fixed the two failing tests",
            "after fixing the type errors",
            "the error path",
        ] {
            assert!(NEUTRAL.is_match(s), "{s}");
        }
    }

    #[test]
    fn markers() {
        assert!(NEGATION.is_match("i haven't run it"));
        assert!(NEGATION.is_match("i couldn’t run it"));
        assert!(!NEGATION.is_match("notable knots"));
        assert!(HEDGE.is_match("this should pass"));
        assert!(FUTURE.is_match("once ci runs"));
        assert!(FAILURE.is_match("2 tests still fail"));
        assert!(!FAILURE.is_match("the build is green"));
        assert!(EXIT_ZERO.is_match("exits 0 with zero warnings"));
        assert!(COUNT_PASS.is_match("58 passed"));
        assert!(COUNT_PASS.is_match("all 25 tests pass"));
        assert!(PASS_NOT_FOLLOWED_BY.is_match(" the value"));
    }
}
