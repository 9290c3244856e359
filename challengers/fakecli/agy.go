package main

import "io"

// agy impersonates the Antigravity CLI, which arena may run in place of
// gemini. Its output is plain text, and none at all unless stdout is a
// terminal: arena has to give it a pty.
var agyCLI = &cli{
	name:     "agy",
	version:  "agy 1.0.0",
	prepare:  agyPrepare,
	emitter:  newAgyEmitter,
	noise:    func() string { return "" },
	authCode: 1,
}

var agyFlags = flagParser{opts: []opt{
	{name: "prompt", short: 'p', arg: "<prompt>"},
	{name: "model", short: 'm', arg: "<model>"},
	{name: "version", short: 'v'},
}}

func agyPrepare(args []string) (*invocation, *failure) {
	p, ferr := agyFlags.parse(args)
	switch {
	case ferr != nil:
		return nil, failf(1, "%s", commanderError(ferr))
	case p.has("version"):
		return &invocation{version: true}, nil
	case !p.has("prompt"):
		return nil, interactive("agy")
	case len(p.pos) > 0:
		return nil, failf(1, "error: unexpected argument '%s'\n", p.pos[0])
	}
	return &invocation{format: "text", model: p.get("model"), prompt: p.get("prompt")}, nil
}

func newAgyEmitter(inv *invocation, s *stream) emitter {
	if !stdoutIsTTY() {
		s.w = io.Discard
	}
	return &textEmitter{stream: s, streams: true, failText: "Error: authentication failed (401)", failToStderr: true}
}
