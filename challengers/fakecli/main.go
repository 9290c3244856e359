// Command fakecli impersonates the model CLIs arena drives (claude,
// gemini, codex, qwen and agy) for tests: the same flags, the same output
// formats byte for byte, the same exit statuses and stderr, with replies
// and failures scripted by the test. See package fakeapi for the script and
// call-log schema and package clitest for the Go helpers.
//
// The binary picks the CLI to impersonate from the name it is run under;
// under any other name it is the management command:
//
//	fakecli install DIR [names...]
//
// which links DIR/claude, DIR/gemini, DIR/codex and DIR/qwen (or the names
// given) to itself, so a script can put fakes on PATH, or
//
//	fakecli serve-api [ADDR]
//
// the API fake: an OpenAI-compatible server answering from the same
// script (serveapi.go).
package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == grandchildArg {
		grandchildMain()
	}
	if len(os.Args) == 4 && os.Args[1] == daemonArg {
		os.Exit(daemonMain(os.Args[2], os.Args[3]))
	}
	name := strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe")
	if c, ok := clis[name]; ok {
		os.Exit(run(c, os.Args[1:]))
	}
	os.Exit(manage(os.Args[1:]))
}

// defaultInstall are the CLIs `fakecli install` links when given no names
// (agy only when asked: its presence changes what arena picks for gemini).
var defaultInstall = []string{"claude", "gemini", "codex", "qwen"}

const usage = `usage: fakecli install DIR [claude|gemini|codex|qwen|agy ...]
       fakecli serve-api [ADDR]
       fakecli shapes

install links fake model CLIs in DIR to this binary; put DIR first on PATH.
serve-api serves an OpenAI-compatible Chat Completions API (serveapi.go),
prints its base URL, and stops when its standard input closes.
shapes lists the reply shapes the fakes answer with a canned reply.
`

func manage(args []string) int {
	if len(args) >= 1 && args[0] == "serve-api" {
		return serveAPI(args[1:])
	}
	if len(args) == 1 && args[0] == "shapes" {
		fmt.Println(strings.Join(shapes(), "\n"))
		return 0
	}
	if len(args) < 2 || args[0] != "install" {
		fmt.Fprint(os.Stderr, usage)
		return 2
	}
	names, err := install(args[1], args[2:])
	if err != nil {
		fmt.Fprintf(os.Stderr, "fakecli: %v\n", err)
		return 1
	}
	fmt.Printf("fakecli: %s in %s now run the fakes; put that directory first on PATH to use them, and keep it off PATH otherwise\n", strings.Join(names, ", "), args[1])
	return 0
}

// install links dir/name to this executable for each name, replacing
// whatever is there, and returns the names.
func install(dir string, names []string) ([]string, error) {
	if len(names) == 0 {
		names = defaultInstall
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	if self, err = filepath.EvalSymlinks(self); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	for _, n := range names {
		if _, ok := clis[n]; !ok {
			return nil, fmt.Errorf("unknown CLI %q (known: %s)", n, strings.Join(slices.Sorted(maps.Keys(clis)), ", "))
		}
		link := filepath.Join(dir, n)
		if err := os.Remove(link); err != nil && !os.IsNotExist(err) {
			return nil, err
		}
		if err := os.Symlink(self, link); err != nil {
			return nil, err
		}
	}
	return names, nil
}
