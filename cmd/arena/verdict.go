package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/engine/verdict"
)

// arena verdict: the rubric quality gate of engine/verdict, its JSONL
// verdict log, its schema, its stats and its pre-push hook.

// verdictFlags are arena verdict's modes other than a run.
type verdictFlags struct {
	installHook, force bool
	uninstallHook      bool
	schema             bool
	stats              string
}

// verdictModes adds to arena verdict its modes other than a run (the
// pre-push hook, the records' schema, a verdict log's stats) and --brief.
func (a *app) verdictModes(cmd *cobra.Command, _ engine.Request, out *outputFlags) {
	f := &verdictFlags{}
	fl := cmd.Flags()
	fl.BoolVar(&out.brief, "brief", false, "print one line: the decision, and the log's path (what the pre-push hook shows)")
	inGroup(fl, groupOutput, "brief")
	fl.BoolVar(&f.installHook, "install-hook", false, "write a git pre-push hook that judges what is pushed")
	fl.BoolVar(&f.force, "force", false, "with --install-hook: replace a hook arena did not write (it is backed up)")
	fl.BoolVar(&f.uninstallHook, "uninstall-hook", false, "remove the pre-push hook arena wrote (never another), putting back the one it replaced")
	fl.BoolVar(&f.schema, "schema", false, "print the verdict log records' JSON Schema")
	fl.StringVar(&f.stats, "stats", "", "summarise a verdict log: verdicts per model, quick/deep agreement, escalations")
	run := cmd.RunE
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		var modes []string
		for _, n := range []string{"schema", "stats", "install-hook", "uninstall-hook"} {
			if cmd.Flags().Changed(n) {
				modes = append(modes, "--"+n)
			}
		}
		if err := usageOf(verdict.CheckModes(modes, args, f.force, f.installHook)); err != nil {
			return err
		}
		switch {
		case f.schema:
			_, err := a.stdout.Write(verdict.Schema())
			return err
		case f.stats != "":
			return a.verdictStats(f, out.record)
		case f.installHook:
			return a.installHook(f.force)
		case f.uninstallHook:
			return a.uninstallHook()
		}
		return run(cmd, args)
	}
}

func (a *app) verdictStats(f *verdictFlags, asJSON bool) error {
	st, err := verdict.StatsOf(f.stats)
	if err != nil {
		return usageOf(err)
	}
	if asJSON {
		b, _ := json.Marshal(st)
		fmt.Fprintf(a.stdout, "%s\n", b)
		return nil
	}
	fmt.Fprint(trust.Writer{W: a.stdout}, st.Text())
	return nil
}
