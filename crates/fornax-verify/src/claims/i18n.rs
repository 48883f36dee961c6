//! Claims in other languages: Chinese (simplified and traditional), Japanese, Korean, Spanish,
//! Portuguese, French, German and Russian, for the common subjects (tests pass, it builds, a
//! file created, updated or deleted, committed, pushed).
//!
//! Each language has its own words for the subjects and predicates, and its own markers of
//! negation, failure, hedging or the future, and partial success (function words differ too
//! much to share: Spanish `se` is reflexive where Portuguese `se` is "if"). A sentence is read
//! in a language when that language's predicate words occur in it; it is cut into clauses at
//! commas, semicolons and the language's "and", and each clause is read like an English one:
//! subject and predicate give the claim, any marker makes it a non-claim. Paths, shas and
//! remotes are read from inline code and bare tokens as in English.

use std::sync::LazyLock;

use super::pattern::Pattern;
use fornax_types::{ClaimQuantity, ClaimSubject, ClaimTarget};

use super::lexicon::LINT_WORD;
use super::{vocab, CodeCat, Doc, Modality};
use crate::commands::CommandKind;
use crate::paths::strip_location;
use crate::text::Span;

/// One language's words, as regex alternations (case-insensitive).
struct Words {
    /// Test nouns.
    test: &'static str,
    /// What tests do when they pass.
    pass: &'static str,
    /// Build nouns and verbs.
    build: &'static str,
    /// What a build does when it succeeds.
    build_ok: &'static str,
    /// Lint and static-analysis nouns (tools are named as in English: `clippy`, `eslint`).
    lint: &'static str,
    /// Created / updated / edited a file.
    written: &'static str,
    deleted: &'static str,
    committed: &'static str,
    pushed: &'static str,
    /// "All" (tests).
    all: &'static str,
    negation: &'static str,
    failure: &'static str,
    /// Hedges, conditions and the future.
    hedge: &'static str,
    partial: &'static str,
    /// Success phrases with a negative word in them ("sin errores"): they shield it.
    ok: &'static str,
    /// Phrases with a failure word that are not failures ("错误处理", error handling).
    neutral: &'static str,
    /// Clause separators besides commas and semicolons.
    and: &'static str,
}

const ZH: Words = Words {
    test: "测试|測試|单测|單測|用例",
    pass: "通过|通過|全绿|全綠|跑通|成功|都过了|都過了",
    build: "构建|構建|建置|编译|編譯|打包",
    build_ok: "成功|通过|通過|无错误|無錯誤|没有错误|沒有錯誤|没有报错|沒有報錯",
    lint: "代码检查|代碼檢查|静态检查|靜態檢查|静态分析|靜態分析|格式检查|格式檢查|lint",
    written: "新增了?|新建了?|创建了?|創建了?|建立了?|添加了?|增加了?|更新了?|修改了?|改了|编写了?|編寫了?|写入了?|寫入了?|重写了?|重寫了?|修复了?|修復了?|修正了?|调整了?|調整了?|补充了?|補充了?",
    deleted: "删除了?|删掉了?|移除了?|刪除了?|刪掉了?",
    committed: "已提交|提交了|已经提交|已經提交|commit\\s*了|已\\s*commit",
    pushed: "已推送|推送到|推送了|推送至|已经推送|已經推送|push\\s*到|已\\s*push",
    all: "所有|全部|都|全都",
    negation: "没有|沒有|未|不|没|尚未|还没|還沒|无法|無法",
    failure: "失败|失敗|报错|報錯|错误|錯誤|崩溃|崩潰",
    hedge: "应该|應該|可能|也许|也許|大概|如果|假如|预计|預計|打算|计划|計劃|准备|準備|将会|將會|稍后|稍後|下一步|接下来|接下來|需要|之后|之後|必须|必須|要求",
    partial: "大部分|大多数|大多數|部分|除了|几乎|幾乎",
    ok: "没有警告|沒有警告|没有错误|沒有錯誤|没有报错|沒有報錯|无错误|無錯誤|无警告|無警告|零错误|零錯誤|不再报错|不再報錯|不再失败|不再失敗|不再崩溃|不再崩潰",
    neutral: "错误处理|錯誤處理|错误信息|錯誤訊息|错误提示|錯誤提示|(?:修复|修復|修正)了?.{0,12}(?:错误|錯誤|报错|報錯)",
    and: "并且|並且|而且|并|並|然后|然後|同时|同時",
};

const JA: Words = Words {
    test: "テスト",
    pass: "通りました|通った|通過|パスしました|パスした|パス|成功|合格|グリーン",
    build: "ビルド|コンパイル|型チェック",
    build_ok: "成功|通りました|通った|通る|エラーなし|エラーはありません|問題ありません",
    lint: "リンター|リント|静的解析|フォーマットチェック|lint",
    written: "作成しました|作成した|作成|追加しました|追加した|更新しました|更新した|修正しました|修正した|変更しました|変更した|編集しました|書き換えました|書き込みました|新規作成",
    deleted: "削除しました|削除した|削除",
    committed: "コミットしました|コミットした|コミット済み",
    pushed: "プッシュしました|プッシュした|プッシュ済み",
    all: "すべて|全て|全部",
    negation: "ない|ません|未|まだ|できな",
    failure: "失敗|エラー|落ち|クラッシュ",
    hedge: "はず|でしょう|だろう|かもしれ|予定|つもり|次に|もし|見込み|後で|必要|なければ|べき",
    partial: "ほとんど|一部|大部分|除いて|以外",
    ok: "エラーなし|エラーはありません|警告なし|警告はありません|問題ありません|問題なし",
    neutral: "エラー処理|エラーハンドリング",
    and: "そして|また",
};

const KO: Words = Words {
    test: "테스트",
    pass: "통과|성공|패스",
    build: "빌드|컴파일",
    build_ok: "성공|통과|오류 없이|에러 없이|문제 없이",
    lint: "린트|정적 분석|lint",
    written: "생성했|생성하였|만들었|추가했|추가하였|업데이트했|업데이트하였|수정했|수정하였|변경했|작성했|고쳤|갱신했",
    deleted: "삭제했|삭제하였|제거했|제거하였|지웠",
    committed: "커밋했|커밋하였|커밋 완료|커밋을 완료",
    pushed: "푸시했|푸시하였|푸시 완료",
    all: "모든|모두|전부|전체",
    negation: "않|못|안 |아직|없",
    failure: "실패|오류|에러|깨졌|깨짐",
    hedge: "것 같|예정|할 것|하겠|아마|만약|필요|해야",
    partial: "대부분|일부|제외|빼고",
    ok: "오류 없|에러 없|경고 없|문제 없|오류가 없|에러가 없|경고가 없|문제가 없",
    neutral: "오류 처리|에러 처리",
    and: "그리고",
};

const ES: Words = Words {
    test: r"\b(?:pruebas?|tests?|suite|specs?)\b",
    pass: r"\b(?:pasan|pasaron|pasa|pasó|pasando|en verde|verdes?|exitosas?|exitosos|superad[oa]s)\b",
    build: r"\b(?:compilación|compila|compiló|build|construcción)\b",
    build_ok: r"\b(?:correct[oa]|exitos[oa]|sin errores|se completó|pasa|pasó|funciona|éxito)\b",
    lint: r"\b(?:linter|lint|análisis estático)\b",
    written: r"\b(?:creé|he creado|creado|cread[oa]s?|agregué|he agregado|agregad[oa]|añadí|he añadido|añadid[oa]|actualicé|he actualizado|actualizad[oa]|modifiqué|he modificado|modificad[oa]|edité|he editado|corregí|he corregido|arreglé|he arreglado|escribí|reescribí|cambié)\b",
    deleted: r"\b(?:eliminé|he eliminado|eliminad[oa]|borré|he borrado|borrad[oa]|quité)\b",
    committed: r"\b(?:hice (?:un |el )?commit|he hecho (?:un |el )?commit|commit realizado|confirmé los cambios|commiteé)\b",
    pushed: r"\b(?:hice (?:un |el )?push|he hecho (?:un |el )?push|subí los cambios|pusheé|empujé)\b",
    all: r"\b(?:todas|todos|toda|todo)\b",
    negation: r"\b(?:no|nunca|ningun[oa]?|sin|todavía no|aún no)\b",
    failure: r"\b(?:falla|fallan|falló|fallaron|fallando|fallido|fallidas?|fallos?|errores|error|roto|rota)\b",
    hedge: r"\b(?:debería|deberían|debe|deben|podría|podrían|quizás?|tal vez|probablemente|voy a|vamos a|si|cuando|espero|falta|pendiente|tienen que|tiene que|hay que|requisito)\b",
    partial: r"\b(?:la mayoría|casi todas|casi todos|excepto|salvo|menos|parcialmente|algunas|algunos)\b",
    ok: r"\b(?:sin errores|sin fallos|sin advertencias|sin problemas|ningún error|ningún fallo|no (?:da|marca|reporta|muestra|encuentra|encontró|hay) (?:ningún )?(?:errores|error|advertencias|avisos|problemas|nada))\b",
    neutral: r"\b(?:manejo de errores|mensajes? de error)\b",
    and: r"\b(?:y|luego)\b",
};

const PT: Words = Words {
    test: r"\b(?:testes?|tests?|suite|specs?)\b",
    pass: r"\b(?:passam|passaram|passou|passa|passando|verdes?|com sucesso)\b",
    build: r"\b(?:build|compilação|compila|compilou)\b",
    build_ok: r"\b(?:passou|passa|sem erros|com sucesso|sucesso|funciona)\b",
    lint: r"\b(?:linter|lint|análise estática)\b",
    written: r"\b(?:criei|criad[oa]s?|adicionei|adicionad[oa]|atualizei|atualizad[oa]|modifiquei|modificad[oa]|alterei|alterad[oa]|editei|corrigi|escrevi|reescrevi|mudei)\b",
    deleted: r"\b(?:removi|removid[oa]|apaguei|apagad[oa]|excluí|excluíd[oa]|deletei)\b",
    committed: r"\b(?:fiz (?:o |um )?commit|commitei|commit feito|commit realizado)\b",
    pushed: r"\b(?:fiz (?:o |um )?push|dei push|pushei|enviei (?:a|o|as|os) (?:branch|ramo|commits?|alterações)(?: para)?)\b",
    all: r"\b(?:todos|todas|todo|toda)\b",
    negation: r"\b(?:não|nunca|nenhuma?|sem|ainda não)\b",
    failure: r"\b(?:falha|falham|falhou|falharam|falhando|falhas|erros?|quebrad[oa]|quebra)\b",
    hedge: r"\b(?:deveria|deveriam|devem|deve|poderia|talvez|provavelmente|vou|vamos|se|quando|depois|espero|pendente|têm que|tem que|precisam|precisa|requisito)\b",
    partial: r"\b(?:maioria|quase todos|quase todas|exceto|menos|parcialmente|alguns|algumas)\b",
    ok: r"\b(?:sem erros|sem falhas|sem avisos|sem problemas|nenhum erro|nenhuma falha)\b",
    neutral: r"\b(?:tratamento de erros?|mensagens? de erro)\b",
    and: r"\b(?:e|depois)\b",
};

const FR: Words = Words {
    test: r"\b(?:tests?|suite|specs?)\b",
    pass: r"\b(?:passent|passé|passés|réussi|réussis|réussissent|sont verts|au vert|verts)\b",
    build: r"\b(?:compilation|compile|build)\b",
    build_ok: r"\b(?:réussit|réussi|passe|sans erreurs?|fonctionne)\b",
    lint: r"\b(?:linter|lint|analyse statique)\b",
    written: r"(?:\b(?:j['’]ai )?(?:créé|créée|créés|ajouté|ajoutée|modifié|modifiée|édité|corrigé|réécrit|écrit|changé)|\bmis à jour|\bmise à jour)\b",
    deleted: r"\b(?:supprimé|supprimée|effacé|retiré)\b",
    committed: r"\b(?:commité|committé|commit effectué|fait un commit|validé les changements)\b",
    pushed: r"\b(?:poussé|pushé|fait un push)\b",
    all: r"\b(?:tous|toutes|tout)\b",
    negation: r"\b(?:ne|pas|jamais|aucun|aucune|sans|non)\b|\bn['’]",
    failure: r"\b(?:échou\w*|échecs?|erreurs?|cassé\w*|plant\w*)\b",
    hedge: r"\b(?:devrait|devraient|doit|doivent|faut|pourrait|pourraient|peut-être|probablement|vais|allons|si|quand|une fois que|j['’]espère|exigence)\b",
    partial: r"\b(?:la plupart|presque tous|sauf|à part|excepté|partiellement|certains)\b",
    ok: r"\b(?:sans erreurs?|sans avertissements?|sans échecs?|sans problèmes?|aucune erreur|aucun échec|aucun avertissement)\b",
    neutral: r"\b(?:gestion des erreurs|messages? d['’]erreur)\b",
    and: r"\b(?:et|puis)\b",
};

const DE: Words = Words {
    test: r"\b(?:tests?|testsuite|suite|specs?)\b",
    pass: r"\b(?:bestehen|bestanden|besteht|laufen durch|läuft durch|durchgelaufen|grün|erfolgreich)\b",
    build: r"\b(?:build|kompilierung|kompiliert|baut|gebaut)\b",
    build_ok: r"\b(?:erfolgreich|fehlerfrei|ohne fehler|durch|grün|sauber)\b",
    lint: r"\b(?:linter|lint|statische analyse)\b",
    written: r"\b(?:erstellt|angelegt|hinzugefügt|aktualisiert|geändert|bearbeitet|angepasst|korrigiert|behoben|geschrieben|überarbeitet)\b",
    deleted: r"\b(?:gelöscht|entfernt)\b",
    committed: r"\b(?:committet|commited|eingecheckt|commit erstellt)\b",
    pushed: r"\b(?:gepusht|gepushed)\b",
    all: r"\b(?:alle|sämtliche)\b",
    negation: r"\b(?:nicht|kein|keine|keinen|keiner|nie|ohne|noch nicht)\b",
    failure: r"\b(?:fehlgeschlagen|fehl|fehler|kaputt|rot|scheitert|gescheitert)\b",
    hedge: r"\b(?:sollte|sollten|soll|sollen|muss|müssen|müsste|müssten|könnte|könnten|vielleicht|wahrscheinlich|werde|werden|wird|wenn|falls|sobald|hoffentlich|vorgabe|anforderung)\b",
    partial: r"\b(?:die meisten|fast alle|außer|bis auf|teilweise|einige)\b",
    ok: r"\b(?:ohne fehler|keine fehler|ohne warnungen|keine warnungen|fehlerfrei|keine probleme|keine verstöße|ohne verstöße|keine beanstandungen|ohne beanstandungen|keine befunde)",
    neutral: r"\b(?:fehlerbehandlung|fehlermeldungen?)\b",
    and: r"\b(?:und|dann)\b",
};

const RU: Words = Words {
    test: r"\b(?:тест\w*)",
    pass: r"(?:\bпроход\w*|\bпрошл\w*|\bпрош[её]л|\bзел[её]н\w*|\bуспешн\w*|\bпройден\w*)",
    build: r"(?:\bсборк\w*|\bсобира\w*|\bсобрал\w*|\bкомпиляц\w*|\bкомпилиру\w*|\bскомпилир\w*)",
    build_ok: r"(?:\bуспешн\w*|\bпрошл\w*|\bпрош[её]л|\bбез ошибок|\bсобира\w*|\bкомпилиру\w*)",
    lint: r"(?:\bлинтер\w*|\bстатическ\w* анализ\w*|\blint\b)",
    written: r"(?:\bсоздал\w*|\bсоздан\w*|\bдобавил\w*|\bдобавлен\w*|\bобновил\w*|\bобновл[её]н\w*|\bизменил\w*|\bизменен\w*|\bисправил\w*|\bисправлен\w*|\bотредактировал\w*|\bнаписал\w*|\bпереписал\w*)",
    deleted: r"(?:\bудалил\w*|\bудал[её]н\w*|\bубрал\w*)",
    committed: r"(?:\bзакоммитил\w*|\bсделал\w* коммит|\bкоммит создан|\bзакоммичен\w*)",
    pushed: r"(?:\bзапушил\w*|\bзапушен\w*|\bотправил\w* в\b)",
    all: r"(?:\bвсе\b|\bвс[её]\b)",
    negation: r"(?:\bне\b|\bнет\b|\bни\b|\bбез\b)",
    failure: r"(?:\bпада\w*|\bупал\w*|\bошибк\w*|\bсломан\w*|\bпровал\w*)",
    hedge: r"(?:\bдолжн\w*|\bможет\b|\bвозможно\b|\bнаверное\b|\bбуду\b|\bбудет\b|\bесли\b|\bкогда\b)",
    partial: r"(?:\bбольшинство\b|\bпочти все\b|\bкроме\b|\bза исключением\b|\bчастично\b|\bнекоторые\b)",
    ok: r"(?:\bбез ошибок\b|\bбез предупреждений\b|\bбез проблем\b|\bошибок нет\b|\bнет ошибок\b)",
    neutral: r"(?:\bобработк\w* ошибок\b|\bсообщени\w* об ошибк\w*)",
    and: r"(?:\bи\b|\bзатем\b)",
};

/// A language's words, compiled.
struct Lang {
    any: Pattern,
    test: Pattern,
    pass: Pattern,
    build: Pattern,
    build_ok: Pattern,
    lint: Pattern,
    written: Pattern,
    deleted: Pattern,
    committed: Pattern,
    pushed: Pattern,
    all: Pattern,
    negation: Pattern,
    failure: Pattern,
    hedge: Pattern,
    partial: Pattern,
    ok: Pattern,
    neutral: Pattern,
    split: Pattern,
}

fn compile(p: &str) -> Pattern {
    Pattern::new(&format!("(?i:{p})"))
        .unwrap_or_else(|_| Pattern::new("$^").expect("empty pattern"))
}

impl Lang {
    fn new(w: &Words) -> Self {
        let any = predicates(w);
        Lang {
            any: compile(&any),
            test: compile(w.test),
            pass: compile(w.pass),
            build: compile(w.build),
            build_ok: compile(w.build_ok),
            lint: compile(w.lint),
            written: compile(w.written),
            deleted: compile(w.deleted),
            committed: compile(w.committed),
            pushed: compile(w.pushed),
            all: compile(w.all),
            negation: compile(w.negation),
            failure: compile(w.failure),
            hedge: compile(w.hedge),
            partial: compile(w.partial),
            ok: compile(w.ok),
            neutral: compile(w.neutral),
            // A full stop before a lower-case word ("… nada. golangci-lint …") ends a clause
            // the sentence splitter kept, as the next word may be a tool's name.
            split: compile(&format!(r"[,;，；、]\s*|\.\s+|\s*(?:{})\s*", w.and)),
        }
    }
}

static LANGS: LazyLock<Vec<Lang>> = LazyLock::new(|| {
    [ZH, JA, KO, ES, PT, FR, DE, RU]
        .iter()
        .map(Lang::new)
        .collect()
});

/// A language's predicate words (its nouns, such as "tests" or "build", are often English).
fn predicates(w: &Words) -> String {
    [
        w.pass,
        w.build_ok,
        w.written,
        w.deleted,
        w.committed,
        w.pushed,
        w.ok,
    ]
    .join("|")
}

/// The scripts of the listed Asian languages and Cyrillic, or a predicate word of the Latin
/// ones: a cheap test before any language is read.
static ANY_LANG: LazyLock<Pattern> = LazyLock::new(|| {
    let latin = [ES, PT, FR, DE]
        .iter()
        .map(predicates)
        .collect::<Vec<_>>()
        .join("|");
    Pattern::new(&format!(
        r"(?i:[\p{{Han}}\p{{Hiragana}}\p{{Katakana}}\p{{Hangul}}\p{{Cyrillic}}]|{latin})"
    ))
    .expect("valid regex")
});

/// One claim read in another language: subject, quote, target, quantity and how it is put.
pub(super) type Foreign = (ClaimSubject, Span, ClaimTarget, ClaimQuantity, Modality);

impl Doc<'_> {
    /// Claims in a sentence written in one of the other languages.
    pub(super) fn foreign(&self, sentence: Span) -> Vec<Foreign> {
        let hay = self.lower.get(sentence.start..sentence.end).unwrap_or("");
        if !ANY_LANG.is_match(hay) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for lang in LANGS.iter() {
            if !lang.any.is_match(hay) {
                continue;
            }
            for clause in self.foreign_clauses(lang, sentence) {
                out.extend(self.foreign_clause(lang, clause));
            }
            if !out.is_empty() {
                break;
            }
        }
        out
    }

    /// A sentence cut at commas, semicolons, full stops and "and", outside inline code; a piece without
    /// words of its own joins the previous one.
    fn foreign_clauses(&self, lang: &Lang, sentence: Span) -> Vec<Span> {
        let hay = self.lower.get(sentence.start..sentence.end).unwrap_or("");
        let mut cuts: Vec<(usize, usize)> = Vec::new();
        for m in lang.split.find_iter(hay) {
            let (s, e) = (sentence.start + m.start(), sentence.start + m.end());
            if self.depth.get(s).copied().unwrap_or(0)
                == self.depth.get(sentence.start).copied().unwrap_or(0)
            {
                cuts.push((s, e));
            }
        }
        let mut pieces = Vec::new();
        let mut cur = sentence.start;
        for (s, e) in cuts {
            if s < cur {
                continue;
            }
            pieces.push(Span::new(cur, s));
            cur = e;
        }
        pieces.push(Span::new(cur, sentence.end));
        let mut out: Vec<Span> = Vec::new();
        for p in pieces {
            let p = self.trim_foreign(p);
            if p.is_empty() {
                continue;
            }
            let words = &self.lower[p.start..p.end];
            let predicate = lang.pass.is_match(words)
                || lang.build_ok.is_match(words)
                || lang.written.is_match(words)
                || lang.deleted.is_match(words)
                || lang.committed.is_match(words)
                || lang.pushed.is_match(words)
                || lang.negation.is_match(words)
                || lang.failure.is_match(words);
            match out.last_mut() {
                Some(last) if !predicate => last.end = p.end,
                _ => out.push(p),
            }
        }
        out
    }

    /// A clause's span without surrounding space and sentence punctuation (`。`, `.`).
    fn trim_foreign(&self, span: Span) -> Span {
        let s = span.slice(self.text);
        let trimmed = s.trim_end_matches(|c: char| {
            c.is_whitespace() || matches!(c, '.' | '。' | '!' | '！' | '?' | '？' | ':' | '：')
        });
        let lead = trimmed.len() - trimmed.trim_start().len();
        Span::new(span.start + lead, span.start + trimmed.len())
    }

    fn foreign_clause(&self, lang: &Lang, clause: Span) -> Vec<Foreign> {
        let hay = &self.lower[clause.start..clause.end];
        // Markers, with success phrases and neutral phrases shielding their words.
        let shields: Vec<(usize, usize)> = lang
            .ok
            .find_iter(hay)
            .chain(lang.neutral.find_iter(hay))
            .map(|m| (m.start(), m.end()))
            .collect();
        let marked = |re: &Pattern| {
            re.find_iter(hay)
                .any(|m| !shields.iter().any(|&(s, e)| s <= m.start() && m.end() <= e))
        };
        let modality = if marked(&lang.negation) || marked(&lang.failure) {
            Modality::Failure
        } else if marked(&lang.hedge) {
            Modality::Hedged
        } else {
            Modality::Done
        };
        let partial = marked(&lang.partial);
        let codes = self.codes_in(clause);
        let mut out = Vec::new();
        let result = |m: Modality| {
            if partial && m == Modality::Done {
                Modality::Partial
            } else {
                m
            }
        };
        if lang.test.is_match(hay) && lang.pass.is_match(hay) {
            let all = lang.all.is_match(hay);
            let quantity = match (foreign_count(&lang.test, hay), all) {
                (Some(count), true) => ClaimQuantity::AllOf { count },
                (Some(count), false) => ClaimQuantity::AtLeast { count },
                (None, true) => ClaimQuantity::All,
                (None, false) => ClaimQuantity::Unqualified,
            };
            out.push((
                ClaimSubject::TestResult,
                clause,
                ClaimTarget::default(),
                quantity,
                result(modality),
            ));
        } else if lang.build.is_match(hay) && lang.build_ok.is_match(hay) {
            out.push((
                ClaimSubject::BuildResult,
                clause,
                ClaimTarget::default(),
                ClaimQuantity::Unqualified,
                result(modality),
            ));
        } else if (lang.lint.is_match(hay) || LINT_WORD.is_match(hay))
            && (lang.ok.is_match(hay) || lang.pass.is_match(hay) || lang.build_ok.is_match(hay))
        {
            // "clippy 检查没有警告": a lint named in English, its result in the language.
            out.push((
                ClaimSubject::LintResult,
                clause,
                ClaimTarget {
                    tool: vocab::tool_named(hay).map(str::to_string),
                    ..ClaimTarget::default()
                },
                ClaimQuantity::Unqualified,
                result(modality),
            ));
        }
        if out.is_empty()
            && (lang.pass.is_match(hay) || lang.ok.is_match(hay) || lang.build_ok.is_match(hay))
        {
            // "O `go vet ./...` passou sem avisos": a command named in code (its words are
            // masked in `hay`), its success in the language, read as the English "`X` passes".
            if let Some((command, class)) = codes.iter().find_map(|&ci| match &self.code[ci].cat {
                CodeCat::Command(class) => Some((self.code[ci].content.clone(), class)),
                _ => None,
            }) {
                let subject = if super::is_task_runner(class) {
                    ClaimSubject::CommandSucceeded
                } else {
                    match class.kind {
                        CommandKind::Test => ClaimSubject::TestResult,
                        CommandKind::Build => ClaimSubject::BuildResult,
                        CommandKind::Lint => ClaimSubject::LintResult,
                        CommandKind::Other => ClaimSubject::CommandSucceeded,
                    }
                };
                out.push((
                    subject,
                    clause,
                    ClaimTarget {
                        command: Some(command),
                        tool: class.tool.clone().map(|t| vocab::canonical(&t)),
                        ..ClaimTarget::default()
                    },
                    ClaimQuantity::Unqualified,
                    result(modality),
                ));
            }
        }
        let paths: Vec<String> = codes
            .iter()
            .filter(|&&ci| matches!(self.code[ci].cat, CodeCat::Path))
            .map(|&ci| strip_location(&self.code[ci].content).to_string())
            .chain(
                self.bare_paths(clause)
                    .into_iter()
                    .map(|(_, p)| strip_location(&p).to_string()),
            )
            .collect();
        // A directory is deleted whole: "`src/legacy` 디렉터리를 삭제했습니다".
        let dirs: Vec<String> = if lang.deleted.is_match(hay) {
            codes
                .iter()
                .filter(|&&ci| matches!(self.code[ci].cat, CodeCat::Other))
                .map(|&ci| self.code[ci].content.trim_end_matches('/').to_string())
                .filter(|c| looks_like_directory(c))
                .collect()
        } else {
            Vec::new()
        };
        let paths: Vec<String> = paths.into_iter().chain(dirs).collect();
        let file_subject = if lang.deleted.is_match(hay) {
            Some(ClaimSubject::FileDeleted)
        } else if lang.written.is_match(hay) {
            Some(ClaimSubject::FileWritten)
        } else {
            None
        };
        if let Some(subject) = file_subject {
            for path in paths {
                out.push((
                    subject,
                    clause,
                    ClaimTarget {
                        path: Some(path),
                        ..ClaimTarget::default()
                    },
                    ClaimQuantity::Unqualified,
                    modality,
                ));
            }
        }
        if lang.committed.is_match(hay) {
            let mut target = self.commit_target(clause, &codes);
            target.branch = None;
            out.push((
                ClaimSubject::GitCommit,
                clause,
                target,
                ClaimQuantity::Unqualified,
                modality,
            ));
        }
        if lang.pushed.is_match(hay) {
            out.push((
                ClaimSubject::GitPush,
                clause,
                self.remote_and_branch(clause),
                ClaimQuantity::Unqualified,
                modality,
            ));
        }
        out
    }
}

/// A directory path as agents quote it: `src/legacy`, `./build`, `~/cache/app` (a slash, and
/// only the characters paths are made of).
/// A number right before the test noun, with the counter words the languages put between
/// ("22 個のテスト", "17 个测试", "15 pruebas", "31 тест"): the claim is a count, not "all".
static COUNT_BEFORE_NOUN: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r"(?:^|[^\d.,/])(\d{1,7})\s*(?:個|个|件|項|项|개의|개|つ)?\s*の?\s*$")
        .expect("valid regex")
});

/// The count a foreign test claim states, if any (zero is no count).
fn foreign_count(test: &Pattern, hay: &str) -> Option<u64> {
    test.find_iter(hay).find_map(|m| {
        COUNT_BEFORE_NOUN
            .captures(&hay[..m.start()])
            .and_then(|c| c.get(1))
            .and_then(|n| n.as_str().parse().ok())
            .filter(|&n| n > 0)
    })
}

fn looks_like_directory(token: &str) -> bool {
    token.contains('/')
        && !token.starts_with('-')
        && !token.contains("://")
        && token
            .split('/')
            .any(|c| c.chars().any(|ch| ch.is_ascii_alphabetic()))
        && token
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '.' | '_' | '-' | '~'))
}
