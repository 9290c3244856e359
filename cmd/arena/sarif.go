package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
	"github.com/arenadebate/arena/tui/page"
	"github.com/arenadebate/arena/tui/sarif"
)

// --sarif FILE on arena verdict and arena rank: the run's findings as
// SARIF 2.1.0 (tui/sarif), for code scanning and review tools.

// sarifFlag adds --sarif to the command of a protocol whose outcome
// holds findings (its spec's Uses.Findings).
func sarifFlag(cmd *cobra.Command, out *outputFlags) {
	fl := cmd.Flags()
	fl.StringVar(&out.sarif, "sarif", "", "write the findings as SARIF 2.1.0 to this new `FILE` (for code scanning): each with its file and line where the judges quoted the work")
	inGroup(fl, groupOutput, "sarif")
}

// checkSARIFPath refuses, before the run, a --sarif file that is there
// already (a file, a link, anything): arena writes only files it makes,
// and a run that ends unable to write its report has wasted the judges.
func checkSARIFPath(path string) error {
	if path == "" {
		return nil
	}
	if _, err := os.Lstat(path); err == nil {
		return usagef("--sarif %s: it exists: arena writes SARIF to a new file only (remove it, or name another)", trust.Text(path))
	} else if !errors.Is(err, fs.ErrNotExist) {
		return usagef("--sarif %s: %w", trust.Text(path), err)
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		return usagef("--sarif %s: no directory %s to write it in", trust.Text(path), trust.Text(filepath.Dir(path)))
	}
	return nil
}

// writeSARIF writes the run's SARIF where --sarif says.
func (a *app) writeSARIF(path string, res engine.Outcome) error {
	if err := sarif.Write(path, sarif.Of(res, buildVersion())); err != nil {
		return fmt.Errorf("--sarif: %w", err)
	}
	return nil
}

// exportFindings is arena export's --sarif and --annotations: the
// findings of the log's outcome as SARIF, or as GitHub Actions workflow
// commands (what the Action prints on a pull request), to stdout or to
// a new file.
func (a *app) exportFindings(log string, f exportFlags) error {
	run, _, err := page.Read(log)
	if err != nil {
		return err
	}
	if run.Outcome == nil {
		return page.ErrNoOutcome
	}
	var b []byte
	if f.sarif {
		l := sarif.Of(*run.Outcome, buildVersion())
		if f.placed {
			l = sarif.Placed(l)
		}
		if b, err = sarif.Marshal(l); err != nil {
			return err
		}
	} else {
		for _, line := range sarif.Annotations(*run.Outcome) {
			b = append(b, line+"\n"...)
		}
	}
	if f.out == "" {
		_, err = a.stdout.Write(b)
		return err
	}
	return trust.WriteExclusive(f.out, b)
}
