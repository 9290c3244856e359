// Package demo holds runs recorded from the engine with arena's stand-in
// CLIs, one per shipped protocol (TestRecordDemo in cmd/arena records them
// again): `arena demo` plays them, and the screen's golden tests are drawn
// from them (through tui/tuitest), so what is tested is what the engine
// really emits. It sits in the engine, below both its users.
package demo

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/runlog"
)

//go:embed *.jsonl
var logs embed.FS

// Protocols lists the protocols with a recording, sorted.
func Protocols() []string {
	entries, _ := fs.ReadDir(logs, ".")
	var out []string
	for _, e := range entries {
		out = append(out, strings.TrimSuffix(e.Name(), ".jsonl"))
	}
	sort.Strings(out)
	return out
}

// Raw is a protocol's recording as it is stored.
func Raw(protocol string) ([]byte, error) {
	b, err := logs.ReadFile(protocol + ".jsonl")
	if err != nil {
		return nil, fmt.Errorf("no demo of %q: the demos are %s", protocol, strings.Join(Protocols(), ", "))
	}
	return b, nil
}

// Read reads a protocol's recording, without the paths of the files the
// recording saved (they mean nothing on another machine).
func Read(protocol string) (runlog.Contents, error) {
	b, err := Raw(protocol)
	if err != nil {
		return runlog.Contents{}, err
	}
	lc, err := runlog.Read(bytes.NewReader(b))
	if err != nil {
		return lc, err
	}
	kept := lc.Events[:0]
	for _, e := range lc.Events {
		switch p := e.Payload.(type) {
		case engine.Saved:
			continue
		case engine.Outcome:
			p.LogPath = ""
			e.Payload = p
		}
		kept = append(kept, e)
	}
	lc.Events = kept
	return lc, nil
}
