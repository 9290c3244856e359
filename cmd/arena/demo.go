package main

import (
	_ "embed"
	"strings"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine/demo"
)

func (a *app) demoCmd() *cobra.Command {
	var f replayFlags
	cmd := &cobra.Command{
		Use:   "demo [PROTOCOL]",
		Short: "Watch a recorded debate, no model CLI needed",
		Long: `demo plays a debate recorded with arena's stand-in CLIs through the live
screen. Each protocol has one (` + strings.Join(a.protocolCommands(), ", ") + `; the default
is debate): every phase of the protocol, a seat that fails, and the
outcome document at the end. Keys: space pauses, n jumps to the next phase,
+ and - change the speed, tab moves between panes, q quits.`,
		Args:      cobra.MaximumNArgs(1),
		ValidArgs: a.protocolCommands(),
		RunE: func(cmd *cobra.Command, args []string) error {
			name := "debate"
			if len(args) == 1 {
				name = args[0]
			}
			p, ok := a.protocolNamed(name)
			if !ok {
				return usagef("no demo of %q: the demos are %s", trust.Text(name), strings.Join(a.protocolCommands(), ", "))
			}
			lc, err := demo.Read(p.Name)
			if err != nil {
				return usageCause(err, "%v", err)
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
