"""Writers for the native session formats the verdict cases are recorded in.

Each writer keeps a session's clock and ids and appends records exactly as the agent runtime
writes them (compact JSON, one object per line, non-ASCII kept as UTF-8). Ids are derived from a
seed so that regenerating the cases gives the same bytes.
"""
import hashlib
import json
import datetime as dt

NEUTRAL_USAGE = {"input_tokens": 3, "cache_creation_input_tokens": 512, "cache_read_input_tokens": 20480,
                 "output_tokens": 96, "service_tier": "standard"}


def dumps(obj):
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


class Ids:
    """Deterministic ids from a seed."""

    def __init__(self, seed):
        self.seed = seed
        self.n = 0

    def hex(self, n):
        self.n += 1
        return hashlib.sha256(f"{self.seed}:{self.n}".encode()).hexdigest()[:n]

    def uuid(self):
        h = self.hex(32)
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:32]}"

    def b62(self, n):
        alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
        h = int(self.hex(40), 16)
        out = ""
        for _ in range(n):
            h, r = divmod(h, 62)
            out += alphabet[r]
        return out


class Clock:
    """A session clock, in milliseconds since the epoch."""

    def __init__(self, start):
        self.t = int(dt.datetime.fromisoformat(start.replace("Z", "+00:00")).timestamp() * 1000)

    def tick(self, ms=1500):
        self.t += ms
        return self.t

    def iso(self, t=None):
        t = self.t if t is None else t
        return dt.datetime.fromtimestamp(t / 1000, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + f"{t % 1000:03d}Z"


# ---------------------------------------------------------------------------------------------
# Claude Code transcripts (2.1.x main files and subagent files; 1.0.x inline sidechains)
# ---------------------------------------------------------------------------------------------

class Claude:
    """A Claude Code transcript. `sidechain_agent` makes it a 2.1.x subagent file; `inline`
    sidechains are written into the parent's own file (Claude Code 1.0.x)."""

    def __init__(self, session_id, cwd, start, version="2.1.119", branch="main", seed=None,
                 model="claude-opus-4-7", agent_id=None, clock=None, lines=None, sidechain=False):
        self.session_id = session_id
        self.cwd = cwd
        self.version = version
        self.branch = branch
        self.model = model
        self.agent_id = agent_id
        self.sidechain = sidechain or agent_id is not None
        self.ids = Ids(seed or session_id)
        self.clock = clock or Clock(start)
        self.lines = [] if lines is None else lines
        self.parent = None
        self.prompt_id = None
        self.pending_tool = {}

    # envelope -------------------------------------------------------------------------------
    def _env(self, kind, extra, ms):
        self.clock.tick(ms)
        uuid = self.ids.uuid()
        line = {"parentUuid": self.parent, "isSidechain": self.sidechain}
        if self.agent_id:
            line["agentId"] = self.agent_id
        line.update(extra)
        line.update({"type": kind, "uuid": uuid, "timestamp": self.clock.iso(), "userType": "external"})
        if not self.version.startswith("1."):
            line["entrypoint"] = "cli"
        line.update({"cwd": self.cwd, "sessionId": self.session_id, "version": self.version,
                     "gitBranch": self.branch})
        self.lines.append(line)
        self.parent = uuid
        return line

    def start(self):
        if not self.sidechain:
            self.lines.append({"type": "permission-mode", "permissionMode": "default", "sessionId": self.session_id})
        return self

    def user(self, text, ms=4000, **extra):
        self.prompt_id = self.ids.uuid()
        body = {"message": {"role": "user", "content": text}}
        if not self.version.startswith("1."):
            body["promptId"] = self.prompt_id
        body.update(extra)
        return self._env("user", body, ms)

    def compact_summary(self, text):
        """A context-compaction summary: model-written, stored as a user line."""
        return self._env("user", {"message": {"role": "user", "content": text}, "isCompactSummary": True,
                                   "isVisibleInTranscriptOnly": True}, 800)

    def _assistant(self, content, stop, ms):
        msg = {"model": self.model, "id": "msg_01" + self.ids.b62(22), "type": "message", "role": "assistant",
               "content": content, "stop_reason": stop, "stop_sequence": None, "usage": NEUTRAL_USAGE}
        return self._env("assistant", {"message": msg, "requestId": "req_011C" + self.ids.b62(20)}, ms)

    def say(self, text, final=False, ms=5000):
        """Assistant text: commentary, or the final answer of the turn."""
        return self._assistant([{"type": "text", "text": text}], "end_turn" if final else None, ms)

    def tool(self, name, inp, ms=3000):
        tid = "toolu_01" + self.ids.b62(22)
        line = self._assistant([{"type": "tool_use", "id": tid, "name": name, "input": inp}], "tool_use", ms)
        self.pending_tool[tid] = line["uuid"]
        return tid

    def tools(self, calls, ms=3000):
        """Several tool calls in one response (parallel tools): one line per block."""
        msg_id = "msg_01" + self.ids.b62(22)
        req = "req_011C" + self.ids.b62(20)
        out = []
        for i, (name, inp) in enumerate(calls):
            tid = "toolu_01" + self.ids.b62(22)
            msg = {"model": self.model, "id": msg_id, "type": "message", "role": "assistant",
                   "content": [{"type": "tool_use", "id": tid, "name": name, "input": inp}],
                   "stop_reason": "tool_use", "stop_sequence": None, "usage": NEUTRAL_USAGE}
            line = self._env("assistant", {"message": msg, "requestId": req}, ms if i == 0 else 5)
            self.pending_tool[tid] = line["uuid"]
            out.append(tid)
        return out

    def result(self, tid, content, is_error=False, tool_use_result=None, ms=600, parent=None):
        block = {"tool_use_id": tid, "type": "tool_result", "content": content}
        if is_error:
            block["is_error"] = True
        body = {"message": {"role": "user", "content": [block]}}
        if not self.version.startswith("1."):
            body["promptId"] = self.prompt_id
        if tool_use_result is not None:
            body["toolUseResult"] = tool_use_result
        if not self.version.startswith("1."):
            body["sourceToolAssistantUUID"] = self.pending_tool.get(tid)
        if parent is not None:
            self.parent = parent
        return self._env("user", body, ms)

    # tools ----------------------------------------------------------------------------------
    def bash(self, command, output="", exit=0, description=None, ms=2500, interrupted=False):
        tid = self.tool("Bash", {"command": command, "description": description or "Run " + command.split()[0]})
        self.bash_result(tid, output, exit, ms=ms, interrupted=interrupted)
        return tid

    def bash_result(self, tid, output="", exit=0, ms=2500, interrupted=False):
        if exit == 0:
            self.result(tid, output, tool_use_result={"stdout": output, "stderr": "", "interrupted": interrupted,
                                                      "isImage": False}, ms=ms)
        else:
            text = f"Exit code {exit}\n{output}"
            self.result(tid, text, is_error=True, tool_use_result="Error: " + text, ms=ms)

    def read(self, path, content):
        tid = self.tool("Read", {"file_path": path})
        numbered = "".join(f"{i + 1:>6}\u2192{l}\n" for i, l in enumerate(content.splitlines()))
        self.result(tid, numbered, tool_use_result={"type": "text", "file": {
            "filePath": path, "content": content, "numLines": len(content.splitlines()), "startLine": 1,
            "totalLines": len(content.splitlines())}}, ms=300)
        return tid

    def edit(self, path, old, new, ok=True, error=None):
        tid = self.tool("Edit", {"file_path": path, "old_string": old, "new_string": new, "replace_all": False})
        if ok:
            self.result(tid, f"The file {path} has been updated successfully.", tool_use_result={
                "filePath": path, "oldString": old, "newString": new, "originalFile": old + "\n",
                "structuredPatch": [{"oldStart": 1, "oldLines": 1, "newStart": 1, "newLines": 1,
                                     "lines": ["-" + old, "+" + new]}], "userModified": False, "replaceAll": False},
                ms=400)
        else:
            err = error or f"String to replace not found in file.\nString: {old}"
            self.result(tid, f"<tool_use_error>{err}</tool_use_error>", is_error=True,
                        tool_use_result="Error: " + err, ms=300)
        return tid

    def write(self, path, content, ok=True, error=None):
        tid = self.tool("Write", {"file_path": path, "content": content})
        if ok:
            self.result(tid, f"File created successfully at: {path}", tool_use_result={
                "type": "create", "filePath": path, "content": content, "structuredPatch": []}, ms=300)
        else:
            err = error or "File has not been read yet. Read it first before writing to it."
            self.result(tid, f"<tool_use_error>{err}</tool_use_error>", is_error=True,
                        tool_use_result="Error: " + err, ms=300)
        return tid

    def agent_call(self, description, prompt, subagent_type="general-purpose", tool="Agent"):
        return self.tool(tool, {"description": description, "prompt": prompt, "subagent_type": subagent_type})

    def agent_result(self, tid, prompt, agent_id, report, tokens=18000, tool_uses=2):
        content = [{"type": "text", "text": report}]
        if self.version.startswith("1."):
            self.result(tid, content, tool_use_result={"content": content, "totalDurationMs": 31000,
                                                       "totalTokens": tokens, "totalToolUseCount": tool_uses,
                                                       "wasInterrupted": False}, ms=800)
            return
        trailer = {"type": "text", "text": f"agentId: {agent_id} (for resuming to continue this agent's work if needed)\n<usage>total_tokens: {tokens}\ntool_uses: {tool_uses}\nduration_ms: 31000</usage>"}
        self.result(tid, content + [trailer], tool_use_result={
            "status": "completed", "prompt": prompt, "agentId": agent_id, "content": content,
            "totalDurationMs": 31000, "totalTokens": tokens, "totalToolUseCount": tool_uses,
            "usage": NEUTRAL_USAGE}, ms=800)

    def subagent(self, agent_id, model="claude-haiku-4-5-20251001"):
        """A 2.1.x subagent transcript sharing this session's id and clock."""
        sub = Claude(self.session_id, self.cwd, None, version=self.version, branch=self.branch,
                     seed=self.ids.seed + ":" + agent_id, model=model, agent_id=agent_id, clock=self.clock)
        return sub

    def inline_sidechain(self, seed):
        """A 1.0.x sidechain: written into this file, same session id, no agent id."""
        side = Claude(self.session_id, self.cwd, None, version=self.version, branch=self.branch,
                      seed=self.ids.seed + ":" + seed, model=self.model, clock=self.clock, lines=self.lines,
                      sidechain=True)
        return side

    def text(self):
        return "".join(dumps(l) + "\n" for l in self.lines)


# ---------------------------------------------------------------------------------------------
# Claude Code hook streams (one stdin payload per line, in firing order)
# ---------------------------------------------------------------------------------------------

class Hooks:
    def __init__(self, session_id, cwd, transcript_path, with_ids=True, failure_events=True):
        self.session_id = session_id
        self.cwd = cwd
        self.transcript_path = transcript_path
        self.with_ids = with_ids
        self.failure_events = failure_events
        self.ids = Ids(session_id)
        self.lines = []

    def _base(self, event, agent=None, mode="acceptEdits"):
        d = {"session_id": self.session_id, "transcript_path": self.transcript_path, "cwd": self.cwd}
        if mode:
            d["permission_mode"] = mode
        d["hook_event_name"] = event
        if agent:
            d["agent_id"], d["agent_type"] = agent
        return d

    def emit(self, d):
        self.lines.append(d)

    def session_start(self, model="claude-opus-4-7"):
        d = self._base("SessionStart", mode=None)
        d.update({"source": "startup", "model": model})
        self.emit(d)

    def prompt(self, text):
        d = self._base("UserPromptSubmit")
        d["prompt"] = text
        self.emit(d)

    def tid(self):
        return "toolu_01" + self.ids.b62(22)

    def pre(self, tool, inp, tid=None, agent=None):
        d = self._base("PreToolUse", agent)
        d.update({"tool_name": tool, "tool_input": inp})
        if self.with_ids and tid:
            d["tool_use_id"] = tid
        self.emit(d)

    def post(self, tool, inp, response, tid=None, agent=None, duration=None):
        d = self._base("PostToolUse", agent)
        d.update({"tool_name": tool, "tool_input": inp, "tool_response": response})
        if self.with_ids and tid:
            d["tool_use_id"] = tid
        if duration is not None and self.with_ids:
            d["duration_ms"] = duration
        self.emit(d)

    def failure(self, tool, inp, error, tid=None, agent=None, duration=None):
        d = self._base("PostToolUseFailure", agent)
        d.update({"tool_name": tool, "tool_input": inp})
        if self.with_ids and tid:
            d["tool_use_id"] = tid
        d["error"] = error
        if duration is not None:
            d["duration_ms"] = duration
        self.emit(d)

    def bash(self, command, stdout="", exit=0, agent=None, pre=True, post=True, description=None):
        inp = {"command": command, "description": description or "Run " + command.split()[0]}
        tid = self.tid()
        if pre:
            self.pre("Bash", inp, tid, agent)
        if not post:
            return
        if exit == 0 or not self.failure_events:
            self.post("Bash", inp, {"stdout": stdout, "stderr": "", "interrupted": False, "isImage": False,
                                    "noOutputExpected": False}, tid, agent, duration=1800)
        else:
            self.failure("Bash", inp, f"Exit code {exit}\n{stdout}", tid, agent, duration=1800)

    def edit(self, path, old, new, agent=None, pre=True, post=True):
        inp = {"file_path": path, "old_string": old, "new_string": new, "replace_all": False}
        tid = self.tid()
        if pre:
            self.pre("Edit", inp, tid, agent)
        if post:
            self.post("Edit", inp, {"filePath": path, "oldString": old, "newString": new,
                                    "originalFile": old + "\n", "structuredPatch": [], "userModified": False,
                                    "replaceAll": False}, tid, agent, duration=35)

    def write(self, path, content, agent=None, pre=True, post=True):
        inp = {"file_path": path, "content": content}
        tid = self.tid()
        if pre:
            self.pre("Write", inp, tid, agent)
        if post:
            self.post("Write", inp, {"type": "create", "filePath": path, "content": content,
                                     "structuredPatch": []}, tid, agent, duration=20)

    def subagent_start(self, agent):
        d = self._base("SubagentStart", agent)
        self.emit(d)

    def subagent_stop(self, agent, message):
        d = self._base("SubagentStop", agent)
        d.update({"stop_hook_active": False, "agent_transcript_path": self.transcript_path.rsplit(".", 1)[0]
                  + f"/subagents/agent-{agent[0]}.jsonl", "last_assistant_message": message})
        self.emit(d)

    def stop(self, message=None):
        d = self._base("Stop")
        d["stop_hook_active"] = False
        if message is not None:
            d["last_assistant_message"] = message
        self.emit(d)

    def session_end(self):
        d = self._base("SessionEnd", mode=None)
        d["reason"] = "prompt_input_exit"
        self.emit(d)

    def text(self):
        return "".join(dumps(l) + "\n" for l in self.lines)


# ---------------------------------------------------------------------------------------------
# Codex rollouts: envelope (0.66+ `shell_command`, 0.98+ `exec_command`) and legacy pre-envelope
# ---------------------------------------------------------------------------------------------

class Codex:
    def __init__(self, session_id, cwd, start, cli_version="0.98.0", tool="exec_command", branch="main",
                 model="gpt-5.2-codex", task_events=False):
        self.session_id = session_id
        self.cwd = cwd
        self.cli_version = cli_version
        self.tool = tool
        self.model = model
        self.task_events = task_events
        self.ids = Ids(session_id)
        self.clock = Clock(start)
        self.start_iso = self.clock.iso()
        self.lines = []
        self.turn = None
        self._line("session_meta", {"id": session_id, "timestamp": self.start_iso, "cwd": cwd,
                                    "originator": "codex_cli_rs", "cli_version": cli_version, "source": "cli",
                                    "model_provider": "openai",
                                    "git": {"commit_hash": self.ids.hex(40), "branch": branch}}, 0)

    def _line(self, kind, payload, ms=1200):
        self.clock.tick(ms)
        self.lines.append({"timestamp": self.clock.iso(), "type": kind, "payload": payload})

    def user(self, text):
        self.turn = self.ids.uuid()
        if self.task_events:
            self._line("event_msg", {"type": "task_started", "turn_id": self.turn,
                                     "model_context_window": 258400}, 3000)
        self._line("response_item", {"type": "message", "role": "user",
                                     "content": [{"type": "input_text", "text": text}]}, 500 if self.task_events else 3000)
        self._line("event_msg", {"type": "user_message", "message": text, "images": []}, 0)
        self._line("turn_context", {"cwd": self.cwd, "approval_policy": "on-request",
                                    "sandbox_policy": {"type": "workspace-write"}, "model": self.model,
                                    "effort": "medium", "summary": "auto"}, 0)

    def say(self, text, final=False):
        self._line("event_msg", {"type": "agent_message", "message": text}, 4000)
        self._line("response_item", {"type": "message", "role": "assistant",
                                     "content": [{"type": "output_text", "text": text}]}, 0)
        if final and self.task_events:
            self._line("event_msg", {"type": "task_complete", "turn_id": self.turn, "last_agent_message": text}, 20)

    def call_id(self):
        return "call_" + self.ids.b62(24)

    def run(self, command, output="", exit=0, secs=1.2):
        cid = self.call_id()
        if self.tool == "exec_command":
            args = {"cmd": command, "workdir": self.cwd}
            self._line("response_item", {"type": "function_call", "name": "exec_command",
                                         "arguments": dumps(args), "call_id": cid}, 2500)
            text = (f"Chunk ID: {self.ids.hex(6)}\nWall time: {secs:.4f} seconds\nProcess exited with code {exit}\n"
                    f"Original token count: {max(1, len(output) // 4)}\nOutput:\n{output}")
        else:
            args = {"command": command, "workdir": self.cwd}
            self._line("response_item", {"type": "function_call", "name": "shell_command",
                                         "arguments": dumps(args), "call_id": cid}, 2500)
            text = f"Exit code: {exit}\nWall time: {secs:.1f} seconds\nOutput:\n{output}"
        self._line("response_item", {"type": "function_call_output", "call_id": cid, "output": text},
                   int(secs * 1000))
        return cid

    def patch(self, body, ok=True, files=None, error=None):
        cid = self.call_id()
        self._line("response_item", {"type": "custom_tool_call", "status": "completed", "call_id": cid,
                                     "name": "apply_patch", "input": "*** Begin Patch\n" + body + "\n*** End Patch"}, 3000)
        if ok:
            listing = "".join(f"{op} {p}\n" for op, p in files)
            out = {"output": "Success. Updated the following files:\n" + listing,
                   "metadata": {"exit_code": 0, "duration_seconds": 0.0}}
        else:
            out = {"output": error or "apply_patch verification failed: Failed to find expected lines in file",
                   "metadata": {"exit_code": 1, "duration_seconds": 0.0}}
        self._line("response_item", {"type": "custom_tool_call_output", "call_id": cid, "output": dumps(out)}, 200)
        return cid

    def text(self):
        return "".join(dumps(l) + "\n" for l in self.lines)


class CodexLegacy:
    """A pre-envelope rollout (2025-09): a header line, bare response items, `record_type: state`."""

    def __init__(self, session_id, start, instructions=None):
        self.ids = Ids(session_id)
        self.clock = Clock(start)
        self.lines = [{"id": session_id, "timestamp": self.clock.iso(), "instructions": instructions}]

    def state(self):
        self.lines.append({"record_type": "state"})

    def user(self, text):
        self.lines.append({"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]})
        self.state()

    def say(self, text):
        self.lines.append({"type": "message", "role": "assistant",
                           "content": [{"type": "output_text", "text": text}]})
        self.state()

    def run(self, command, output="", exit=0, secs=1.1):
        cid = "call_" + self.ids.b62(24)
        self.lines.append({"type": "function_call", "name": "shell",
                           "arguments": dumps({"command": ["bash", "-lc", command], "timeout_ms": 120000}),
                           "call_id": cid})
        self.lines.append({"type": "function_call_output", "call_id": cid,
                           "output": dumps({"output": output, "metadata": {"exit_code": exit,
                                                                            "duration_seconds": secs}})})
        self.state()
        return cid

    def patch(self, body, ok=True, files=None):
        cid = "call_" + self.ids.b62(24)
        patch = "*** Begin Patch\n" + body + "\n*** End Patch"
        self.lines.append({"type": "function_call", "name": "shell",
                           "arguments": dumps({"command": ["apply_patch", patch]}), "call_id": cid})
        if ok:
            out = "Success. Updated the following files:\n" + "".join(f"{op} {p}\n" for op, p in files)
            self.lines.append({"type": "function_call_output", "call_id": cid,
                               "output": dumps({"output": out, "metadata": {"exit_code": 0, "duration_seconds": 0.0}})})
        else:
            self.lines.append({"type": "function_call_output", "call_id": cid,
                               "output": dumps({"output": "Failed to find expected lines", "metadata": {
                                   "exit_code": 1, "duration_seconds": 0.0}})})
        self.state()
        return cid

    def text(self):
        # The legacy rollouts on disk were written with CRLF line endings.
        return "".join(dumps(l) + "\r\n" for l in self.lines)


# ---------------------------------------------------------------------------------------------
# Pi sessions (v3)
# ---------------------------------------------------------------------------------------------

class Pi:
    def __init__(self, session_id, cwd, start, model="claude-sonnet-4-5"):
        self.ids = Ids(session_id)
        self.clock = Clock(start)
        self.model = model
        self.lines = [{"type": "session", "version": 3, "id": session_id, "timestamp": self.clock.iso(), "cwd": cwd}]
        self.parent = None
        self._entry({"type": "model_change", "provider": "anthropic", "modelId": model}, 10)

    def _entry(self, d, ms):
        self.clock.tick(ms)
        eid = self.ids.hex(8)
        line = {"type": d.pop("type"), "id": eid, "parentId": self.parent, "timestamp": self.clock.iso()}
        line.update(d)
        self.lines.append(line)
        self.parent = eid
        return line

    def _message(self, message, ms):
        message["timestamp"] = self.clock.t + ms
        return self._entry({"type": "message", "message": message}, ms)

    def user(self, text):
        self._message({"role": "user", "content": [{"type": "text", "text": text}]}, 5000)

    def _assistant(self, content, stop):
        self._message({"role": "assistant", "content": content, "api": "anthropic-messages", "provider": "anthropic",
                       "model": self.model, "usage": {"input": 4, "output": 80, "cacheRead": 20000, "cacheWrite": 900,
                                                      "totalTokens": 20984},
                       "stopReason": stop}, 4000)

    def say(self, text, final=False):
        self._assistant([{"type": "text", "text": text}], "stop" if final else "toolUse")

    def tool(self, name, args, result_text, is_error=False):
        tid = "toolu_01" + self.ids.b62(22)
        self._assistant([{"type": "toolCall", "id": tid, "name": name, "arguments": args}], "toolUse")
        self._message({"role": "toolResult", "toolCallId": tid, "toolName": name,
                       "content": [{"type": "text", "text": result_text}], "isError": is_error}, 1500)
        return tid

    def bash(self, command, output="", exit=0):
        if exit == 0:
            return self.tool("bash", {"command": command}, output)
        return self.tool("bash", {"command": command}, f"{output}\n\nCommand exited with code {exit}", True)

    def write(self, path, content, ok=True):
        if ok:
            return self.tool("write", {"path": path, "content": content},
                             f"Successfully wrote {len(content.encode())} bytes to {path}")
        return self.tool("write", {"path": path, "content": content}, f"EACCES: permission denied, open '{path}'", True)

    def edit(self, path, old, new, ok=True):
        if ok:
            return self.tool("edit", {"path": path, "oldText": old, "newText": new},
                             f"Successfully replaced text in {path}.")
        return self.tool("edit", {"path": path, "oldText": old, "newText": new},
                         f"Could not find the exact text in {path}. The old text must match exactly including all whitespace and newlines.", True)

    def text(self):
        return "".join(dumps(l) + "\n" for l in self.lines)


# ---------------------------------------------------------------------------------------------
# Gemini CLI chat files (one JSON document per session)
# ---------------------------------------------------------------------------------------------

class Gemini:
    def __init__(self, session_id, project_hash, start, model="gemini-2.5-pro"):
        self.ids = Ids(session_id)
        self.clock = Clock(start)
        self.model = model
        self.doc = {"sessionId": session_id, "projectHash": project_hash, "startTime": self.clock.iso(),
                    "lastUpdated": self.clock.iso(), "messages": []}

    def _msg(self, kind, content, ms, **extra):
        self.clock.tick(ms)
        m = {"id": self.ids.uuid(), "timestamp": self.clock.iso(), "type": kind, "content": content}
        m.update(extra)
        self.doc["messages"].append(m)
        self.doc["lastUpdated"] = self.clock.iso()
        return m

    def user(self, text):
        self._msg("user", text, 4000)

    def say(self, text):
        self._msg("gemini", text, 5000, thoughts=[], tokens={"input": 9000, "output": 120, "cached": 0,
                                                              "thoughts": 40, "tool": 0, "total": 9160},
                  model=self.model)

    def _call(self, name, args, output, display, status="success"):
        self.clock.tick(3000)
        cid = f"{name}-{self.clock.t}-{self.ids.hex(13)}"
        call = {"id": cid, "name": name, "args": args,
                "result": [{"functionResponse": {"id": cid, "name": name, "response": {"output": output}}}],
                "status": status, "timestamp": self.clock.iso(), "resultDisplay": display,
                "displayName": display_name(name), "description": "", "renderOutputAsMarkdown": name != "run_shell_command"}
        m = self._msg("gemini", "", 100, toolCalls=[call], thoughts=[], model=self.model,
                      tokens={"input": 9000, "output": 60, "cached": 0, "thoughts": 10, "tool": 0, "total": 9070})
        return m

    def shell(self, command, output="", exit=0):
        body = (f"Command: {command}\nDirectory: (root)\nOutput: {output or '(empty)'}\nError: (none)\n"
                f"Exit Code: {exit}\nSignal: 0\nBackground PIDs: (none)\nProcess Group PGID: {4000 + len(self.doc['messages'])}")
        return self._call("run_shell_command", {"command": command}, body, body)

    def write(self, path, content):
        out = f"Successfully created and wrote to new file: {path}."
        return self._call("write_file", {"file_path": path, "content": content}, out, out)

    def replace(self, path, old, new, ok=True):
        if ok:
            out = f"Successfully modified file: {path} (1 replacements)."
            return self._call("replace", {"file_path": path, "old_string": old, "new_string": new}, out, out)
        out = (f"Failed to edit, 0 occurrences found for old_string in {path}. No edits made. The exact text in "
               "old_string was not found.")
        return self._call("replace", {"file_path": path, "old_string": old, "new_string": new}, out, out, status="error")

    def text(self):
        return json.dumps(self.doc, ensure_ascii=False, indent=2) + "\n"


def display_name(name):
    return {"run_shell_command": "Shell", "write_file": "WriteFile", "replace": "Edit"}.get(name, name)


# ---------------------------------------------------------------------------------------------
# opencode plugin streams: {"hook", "at", "payload"} per line (opencode 1.1 plugin API)
# ---------------------------------------------------------------------------------------------

class Opencode:
    def __init__(self, session_id, directory, start, model=("anthropic", "claude-sonnet-4-5")):
        self.sid = session_id
        self.dir = directory
        self.ids = Ids(session_id)
        self.clock = Clock(start)
        self.provider, self.model = model
        self.lines = []
        self.user_msg = None
        self.msg = None
        self.created = self.clock.t
        self.event({"type": "session.created", "properties": {"info": {
            "id": session_id, "slug": "calm-delta", "version": "1.1.53", "projectID": self.ids.hex(40),
            "directory": directory, "title": "New session", "time": {"created": self.clock.t, "updated": self.clock.t}}}})

    def _line(self, hook, payload, ms=40):
        self.clock.tick(ms)
        self.lines.append({"hook": hook, "at": self.clock.iso(), "payload": payload})

    def event(self, ev, ms=30):
        self._line("event", {"event": ev}, ms)

    def mid(self):
        return "msg_" + self.ids.hex(12) + self.ids.b62(14)

    def pid(self):
        return "prt_" + self.ids.hex(12) + self.ids.b62(14)

    def user(self, text):
        self.user_msg = self.mid()
        info = {"id": self.user_msg, "sessionID": self.sid, "role": "user", "time": {"created": self.clock.t},
                "agent": "build", "model": {"providerID": self.provider, "modelID": self.model}}
        self._line("chat.message", {"input": {"sessionID": self.sid, "agent": "build",
                                               "model": {"providerID": self.provider, "modelID": self.model},
                                               "messageID": self.user_msg},
                                     "output": {"message": info, "parts": [
                                         {"id": self.pid(), "sessionID": self.sid, "messageID": self.user_msg,
                                          "type": "text", "text": text}]}}, 4000)
        self.event({"type": "message.updated", "properties": {"info": info}})
        self.event({"type": "session.status", "properties": {"sessionID": self.sid, "status": {"type": "busy"}}})
        self.begin()

    def _info(self, done=False):
        info = {"id": self.msg, "sessionID": self.sid, "role": "assistant", "time": {"created": self.msg_created},
                "parentID": self.user_msg, "modelID": self.model, "providerID": self.provider, "mode": "build",
                "agent": "build", "path": {"cwd": self.dir, "root": self.dir}, "cost": 0,
                "tokens": {"input": 0, "output": 0, "reasoning": 0, "cache": {"read": 0, "write": 0}}}
        if done:
            info["time"]["completed"] = self.clock.t
            info["finish"] = done
        return info

    def begin(self):
        self.msg = self.mid()
        self.msg_created = self.clock.t
        self.event({"type": "message.updated", "properties": {"info": self._info()}}, 400)
        self.event({"type": "message.part.updated", "properties": {"part": {
            "id": self.pid(), "sessionID": self.sid, "messageID": self.msg, "type": "step-start",
            "snapshot": self.ids.hex(40)}}})

    def finish(self, reason):
        self.event({"type": "message.part.updated", "properties": {"part": {
            "id": self.pid(), "sessionID": self.sid, "messageID": self.msg, "type": "step-finish",
            "reason": reason, "snapshot": self.ids.hex(40), "cost": 0.01,
            "tokens": {"input": 3, "output": 200, "reasoning": 0, "cache": {"read": 18000, "write": 900}}}}})
        self.event({"type": "message.updated", "properties": {"info": self._info(reason)}})

    def say(self, text, final=False):
        start = self.clock.t
        self.clock.tick(3000)
        self.event({"type": "message.part.updated", "properties": {"part": {
            "id": self.pid(), "sessionID": self.sid, "messageID": self.msg, "type": "text", "text": text,
            "time": {"start": start, "end": self.clock.t}}}})
        if final:
            self.finish("stop")
            self.event({"type": "session.idle", "properties": {"sessionID": self.sid}})
        else:
            self.finish("tool-calls")
            self.begin()

    def tool(self, tool, args, title, output, metadata):
        cid = "toolu_01" + self.ids.b62(22)
        self._line("tool.execute.before", {"input": {"tool": tool, "sessionID": self.sid, "callID": cid},
                                           "output": {"args": args}}, 3000)
        self._line("tool.execute.after", {"input": {"tool": tool, "sessionID": self.sid, "callID": cid},
                                          "output": {"title": title, "output": output, "metadata": metadata}}, 1500)
        return cid

    def bash(self, command, output="", exit=0, description=None):
        desc = description or "Run " + command.split()[0]
        return self.tool("bash", {"command": command, "description": desc}, desc, output,
                         {"output": output, "exit": exit, "description": desc})

    def write(self, path, content):
        return self.tool("write", {"filePath": path, "content": content}, path.rsplit("/", 1)[-1],
                         "Wrote file successfully.", {"diagnostics": {}, "filepath": path, "exists": False})

    def edit(self, path, old, new):
        return self.tool("edit", {"filePath": path, "oldString": old, "newString": new}, path.rsplit("/", 1)[-1],
                         "Edit applied successfully.", {"diagnostics": {}, "diff": f"--- {path}\n+++ {path}\n-{old}\n+{new}\n"})

    def text(self):
        return "".join(dumps(l) + "\n" for l in self.lines)


# ---------------------------------------------------------------------------------------------
# GitHub Copilot CLI session logs (`~/.copilot/session-state/<id>/events.jsonl`, 1.0.x)
# ---------------------------------------------------------------------------------------------

class Copilot:
    """A Copilot CLI event log: `{type, data, id, timestamp, parentId}` per line. Each agent step
    is one turn (`assistant.turn_start` … `assistant.turn_end`); a shell result ends with the
    runtime's own `<exited with exit code N>` line."""

    def __init__(self, session_id, cwd, start, version="1.0.55-1", model="claude-sonnet-4.5", branch="main"):
        self.sid = session_id
        self.cwd = cwd
        self.ids = Ids(session_id)
        self.clock = Clock(start)
        self.model = model
        self.version = version
        self.lines = []
        self.parent = None
        self.turn = 0
        self.interaction = None
        self._event("session.start", {"sessionId": session_id, "version": 1, "producer": "copilot-agent",
                                      "copilotVersion": version, "startTime": self.clock.iso(),
                                      "context": {"cwd": cwd, "gitRoot": cwd, "branch": branch},
                                      "alreadyInUse": False, "remoteSteerable": False}, 50)
        self._event("session.model_change", {"newModel": model, "reasoningEffort": None, "contextTier": None})

    def _event(self, kind, data, ms=400):
        self.clock.tick(ms)
        eid = self.ids.uuid()
        self.lines.append({"type": kind, "data": data, "id": eid, "timestamp": self.clock.iso(),
                           "parentId": self.parent})
        self.parent = eid

    def user(self, text):
        self.interaction = self.ids.uuid()
        stamp = self.clock.iso()[:19] + "+00:00"
        self._event("user.message", {"content": text, "transformedContent":
                                     f"<current_datetime>{stamp}</current_datetime>\n\n{text}",
                                     "attachments": [], "interactionId": self.interaction}, 4000)

    def _turn(self, content, requests, results):
        turn = str(self.turn)
        self.turn += 1
        self._event("assistant.turn_start", {"turnId": turn, "interactionId": self.interaction})
        self._event("assistant.message", {"messageId": self.ids.uuid(), "model": self.model, "content": content,
                                          "toolRequests": requests, "interactionId": self.interaction,
                                          "turnId": turn, "outputTokens": 40 + len(content) // 4}, 3000)
        for req, (ok, text, detail) in zip(requests, results):
            self._event("tool.execution_start", {"toolCallId": req["toolCallId"], "toolName": req["name"],
                                                 "arguments": req["arguments"], "turnId": turn})
            data = {"toolCallId": req["toolCallId"], "model": self.model, "interactionId": self.interaction,
                    "turnId": turn, "success": ok}
            if ok:
                data["result"] = {"content": text, "detailedContent": detail if detail is not None else text}
            else:
                data["error"] = {"message": text, "code": "failure"}
            self._event("tool.execution_complete", data, 1800)
        self._event("assistant.turn_end", {"turnId": turn})

    def _request(self, name, args):
        req = {"toolCallId": "toolu_" + self.ids.b62(24), "name": name, "arguments": args, "type": "function"}
        if name == "bash":
            req["intentionSummary"] = args.get("description", "")
        return req

    def bash(self, command, output="", exit=0, description=None, say=""):
        args = {"command": command, "description": description or "Run " + command.split()[0]}
        body = (output.rstrip("\n") + "\n" if output else "") + f"<exited with exit code {exit}>"
        self._turn(say, [self._request("bash", args)], [(True, body, None)])

    def edit(self, path, old, new, ok=True, say=""):
        req = self._request("edit", {"path": path, "old_str": old, "new_str": new})
        if ok:
            rel = path.lstrip("/")
            diff = (f"\ndiff --git a/{rel} b/{rel}\nindex 1a2b3c4..5d6e7f8 100644\n--- a/{rel}\n+++ b/{rel}\n"
                    f"@@ -1,1 +1,1 @@\n-{old}\n+{new}\n")
            self._turn(say, [req], [(True, f"File {path} updated with changes.", diff)])
        else:
            self._turn(say, [req], [(False, f"No match found for old_str in {path}.", None)])

    def create(self, path, text, ok=True, say=""):
        req = self._request("create", {"path": path, "file_text": text})
        if ok:
            rel = path.lstrip("/")
            body = "".join("+" + l + "\n" for l in text.splitlines())
            diff = (f"\ndiff --git a/{rel} b/{rel}\nnew file mode 100644\nindex 0000000..9a8b7c6\n--- /dev/null\n"
                    f"+++ b/{rel}\n@@ -0,0 +1,{len(text.splitlines())} @@\n{body}")
            self._turn(say, [req], [(True, f"Created file {path} with {len(text)} characters", diff)])
        else:
            self._turn(say, [req], [(False, f"Path already exists: {path}", None)])

    def say(self, text):
        self._turn(text, [], [])

    def shutdown(self):
        self._event("session.shutdown", {"shutdownType": "routine", "totalPremiumRequests": 1,
                                         "totalApiDurationMs": 9000, "sessionStartTime": self.lines[0]["data"][
                                             "startTime"], "currentModel": self.model})

    def text(self):
        return "".join(dumps(l) + "\n" for l in self.lines)


# ---------------------------------------------------------------------------------------------
# Cursor: JSONL agent transcripts (`agent-transcripts/<id>/<id>.jsonl`, 3.x) and hook payloads
# ---------------------------------------------------------------------------------------------

class CursorTranscript:
    """A Cursor JSONL agent transcript: no ids, no clock and no tool results (Cursor keeps
    those elsewhere), so the verdicts of claims that need a result are UNAVAILABLE here."""

    def __init__(self, overview):
        self.lines = [{"type": "metadata", "metadata": {"overview": overview}}]

    def user(self, text, stamp=None):
        head = f"<timestamp>{stamp}</timestamp>\n" if stamp else ""
        self.lines.append({"role": "user", "message": {"content": [
            {"type": "text", "text": f"{head}<user_query>\n{text}\n</user_query>"}]}})

    def step(self, text=None, tools=(), thinking=None):
        content = []
        if thinking:
            content.append({"type": "thinking", "thinking": thinking})
        if text:
            content.append({"type": "text", "text": text})
        for name, inp in tools:
            content.append({"type": "tool_use", "name": name, "input": inp})
        self.lines.append({"role": "assistant", "message": {"content": content}})

    def end(self, status="success", error=None):
        line = {"type": "turn_ended", "status": status}
        if error:
            line["error"] = error
        self.lines.append(line)

    def text(self):
        return "".join(dumps(l) + "\n" for l in self.lines)


class CursorHooks:
    """Cursor hook payloads (2.7), one stdin object per line in firing order: the common fields
    on every payload, then the event's own. `afterShellExecution` carries the output but never an
    exit status."""

    def __init__(self, conversation_id, root, version="2.7.0-pre.78.patch.0", model="composer-2"):
        self.cid = conversation_id
        self.root = root
        self.version = version
        self.model = model
        self.ids = Ids(conversation_id)
        self.generation = None
        slug = root.strip("/").replace("/", "-")
        self.transcript = (f"/home/{root.split('/')[2]}/.cursor/projects/{slug}/agent-transcripts/"
                           f"{conversation_id}/{conversation_id}.jsonl")
        self.lines = []

    def _hook(self, event, **fields):
        line = {"conversation_id": self.cid, "generation_id": self.generation or self.ids.uuid(),
                "model": self.model, "cursor_version": self.version, "workspace_roots": [self.root],
                "user_email": "user@example.invalid", "transcript_path": self.transcript,
                "hook_event_name": event}
        line.update(fields)
        self.lines.append(line)

    def session_start(self):
        self.generation = self.ids.uuid()
        self._hook("sessionStart", session_id=self.cid, composer_mode="agent", is_background_agent=False)

    def prompt(self, text):
        self.generation = self.ids.uuid()
        self._hook("beforeSubmitPrompt", prompt=text, attachments=[])

    def shell(self, command, output="", duration=1200, cwd=""):
        self._hook("beforeShellExecution", command=command, cwd=cwd, sandbox=False)
        self._hook("afterShellExecution", command=command, output=output, duration=duration)

    def edit(self, path, old, new):
        self._hook("afterFileEdit", file_path=path, edits=[{"old_string": old, "new_string": new}])

    def respond(self, text):
        self._hook("afterAgentResponse", text=text)

    def stop(self, status="completed"):
        self._hook("stop", status=status, loop_count=0)

    def session_end(self):
        self._hook("sessionEnd", reason="user_closed", duration_ms=60000, is_background_agent=False,
                   final_status="completed")

    def text(self):
        return "".join(dumps(l) + "\n" for l in self.lines)
