package main

import (
	"bytes"
	_ "embed"
	"io"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/engine"
)

// demoLog is a debate recorded from the fake CLIs (see TestRecordDemo):
// every phase, a challenger that times out, and a tradeoff outcome.
//
//go:embed demo/demo.jsonl
var demoLog []byte

func demoReader() io.Reader { return bytes.NewReader(demoLog) }

func (a *app) demoCmd() *cobra.Command {
	var f replayFlags
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Watch a recorded debate, no model CLI needed",
		Long: `demo plays a debate recorded with arena's stand-in CLIs through the live
screen: every phase of the protocol, a challenger that times out, and a
tradeoff document at the end. Keys: space pauses, n jumps to the next
phase, + and - change the speed, tab moves between panes, q quits.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			lc, err := engine.ReadLog(demoReader())
			if err != nil {
				return err
			}
			// The recording's own file paths mean nothing here.
			for i, e := range lc.Events {
				if o, ok := e.Payload.(engine.Outcome); ok {
					o.LogPath, o.ReportPath = "", ""
					lc.Events[i].Payload = o
				}
			}
			return a.play(lc, f)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.noTUI, "no-tui", false, "print the debate as plain text")
	fl.Float64Var(&f.speed, "speed", 1, "playback speed factor")
	fl.BoolVar(&f.instant, "instant", false, "play without waiting between events")
	return cmd
}
