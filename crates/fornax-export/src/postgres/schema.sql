-- The team mirror's schema (version 1). Every row carries the machine and user labels of the
-- store it came from; rows are keyed by (machine, provider, native id). Timestamps are the
-- agents' own, parsed; text columns hold what the local store holds (redacted before storage).
CREATE SCHEMA IF NOT EXISTS fornax;

CREATE TABLE IF NOT EXISTS fornax.schema_version (version integer NOT NULL);
INSERT INTO fornax.schema_version (version)
    SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM fornax.schema_version);

-- Per machine and table: the largest local row id mirrored (committed with the rows).
CREATE TABLE IF NOT EXISTS fornax.watermark (
    machine     text NOT NULL,
    tbl         text NOT NULL,
    last_id     bigint NOT NULL,
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (machine, tbl)
);

CREATE TABLE IF NOT EXISTS fornax.session (
    machine          text NOT NULL,
    provider         text NOT NULL,
    native_id        text NOT NULL,
    user_label       text NOT NULL,
    parent_native_id text,
    cwd              text,
    name             text,
    created_at       timestamptz,
    last_activity    timestamptz,
    runtime_version  text,
    loops            bigint NOT NULL,
    items            bigint NOT NULL,
    PRIMARY KEY (machine, provider, native_id)
);

CREATE TABLE IF NOT EXISTS fornax.loop (
    machine                 text NOT NULL,
    provider                text NOT NULL,
    session_native_id       text NOT NULL,
    position                bigint NOT NULL,
    user_label              text NOT NULL,
    native_id               text,
    started_at              timestamptz,
    ended_at                timestamptz,
    outcome                 text,
    model                   text,
    input_tokens            bigint,
    cached_input_tokens     bigint,
    output_tokens           bigint,
    reasoning_output_tokens bigint,
    PRIMARY KEY (machine, provider, session_native_id, position)
);

CREATE TABLE IF NOT EXISTS fornax.item (
    machine           text NOT NULL,
    provider          text NOT NULL,
    session_native_id text NOT NULL,
    key               text NOT NULL,
    user_label        text NOT NULL,
    loop_position     bigint,
    at                timestamptz,
    role              text NOT NULL,
    kind              text NOT NULL,
    tool_name         text,
    call_id           text,
    exit_code         bigint,
    failed            boolean,
    body              text,
    PRIMARY KEY (machine, provider, session_native_id, key)
);

-- The current finding per claim (a newer local finding row replaces an older one).
CREATE TABLE IF NOT EXISTS fornax.finding (
    machine           text NOT NULL,
    provider          text NOT NULL,
    session_native_id text NOT NULL,
    claim_key         text NOT NULL,
    user_label        text NOT NULL,
    local_id          bigint NOT NULL,
    item_key          text,
    loop_position     bigint,
    subject           text,
    claim             text,
    at                timestamptz,
    verdict           text NOT NULL,
    rationale         text NOT NULL,
    evidence          text[] NOT NULL,
    rule              text NOT NULL,
    computed_at       timestamptz,
    PRIMARY KEY (machine, provider, session_native_id, claim_key)
);
CREATE INDEX IF NOT EXISTS finding_by_verdict ON fornax.finding (verdict);

-- Findings across the team, with where and by whom.
CREATE OR REPLACE VIEW fornax.team_findings AS
SELECT f.user_label, f.machine, f.provider, f.session_native_id, s.cwd, s.name AS session_name,
       f.verdict, f.claim, f.subject, f.rationale, f.evidence, f.at, f.computed_at
FROM fornax.finding f
LEFT JOIN fornax.session s
  ON s.machine = f.machine AND s.provider = f.provider AND s.native_id = f.session_native_id;

-- Token usage per person per week (ISO weeks, by the loop's start), per runtime and model.
CREATE OR REPLACE VIEW fornax.usage_per_person_week AS
SELECT l.user_label, date_trunc('week', COALESCE(l.started_at, s.created_at)) AS week,
       l.provider, l.model, count(*) AS loops,
       sum(l.input_tokens) AS input_tokens, sum(l.cached_input_tokens) AS cached_input_tokens,
       sum(l.output_tokens) AS output_tokens,
       sum(l.reasoning_output_tokens) AS reasoning_output_tokens
FROM fornax.loop l
LEFT JOIN fornax.session s
  ON s.machine = l.machine AND s.provider = l.provider AND s.native_id = l.session_native_id
GROUP BY 1, 2, 3, 4;
