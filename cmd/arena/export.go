package main

import (
	"errors"
	"io/fs"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/tui/page"
)

// arena export: a run as a page to share (tui/page).

var exportExits = exits{
	{Code: exitOK, Means: "written"},
	{Code: exitError, Means: "the file could not be written"},
	{Code: exitUsage, Means: "usage error (no such log, not an arena log, two formats, a file that exists, --md of a run with no outcome)"},
}

type exportFlags struct {
	html, md, json     bool
	sarif, annotations bool
	placed             bool
	out                string
}

func (a *app) exportCmd() *cobra.Command {
	var f exportFlags
	cmd := &cobra.Command{
		Use:   "export LOG [--html|--md|--json|--sarif|--annotations] [-o FILE]",
		Short: "Write a run as one web page to share (or its outcome document, or JSON)",
		Long: `export writes a saved run for people who do not run arena.

  --html   (the default) one self-contained HTML file: the question, the seats
           (agent, vendor, endpoint or CLI), each phase and round with every
           reply (folded, click to open), the tables (order receipts,
           scorecards), the outcome, the ledger, the costs, and where the run
           was interrupted or resumed. It fetches nothing and runs no script:
           inline CSS under a strict Content-Security-Policy. Every reply is a
           model's text: Markdown without raw HTML, links only to web and mail
           addresses. It reads well on a phone and in dark mode, and prints
           with every reply open.
  --md     the outcome document, as arena saves it beside the log (with the
           follow-up questions asked after it).
  --json   the run as data: the seats, the phases with every call and its
           reply, the tables, the outcome (its document), the costs.
  --sarif  the findings of a verdict or a ranking as SARIF 2.1.0 (as
           arena verdict --sarif writes them), for code scanning.
  --annotations
           the findings as GitHub Actions workflow commands, a line each
           (::warning file=F,line=N::...), escaped for the runner: what the
           Action prints on a pull request.
  --placed with --sarif: only the findings arena placed in a file, as
           GitHub code scanning takes them (the Action uploads these).

It writes to stdout, or with -o to a new file: arena never writes over a
file, nor through a symbolic link. arena serve shows the same page for every
run in your log directories.`,
		Example: `  arena export debate-logs/20261124-012029.046-which-queue.jsonl -o which-queue.html
  arena export LOG --md > outcome.md
  arena export LOG --json | jq '.phases[].items[].call.reply.badge'`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error { return a.runExport(args[0], f) },
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.html, "html", false, "one self-contained web page (the default)")
	fl.BoolVar(&f.md, "md", false, "the outcome document, as Markdown")
	fl.BoolVar(&f.json, "json", false, "the run as JSON")
	fl.BoolVar(&f.sarif, "sarif", false, "the findings as SARIF 2.1.0")
	fl.BoolVar(&f.annotations, "annotations", false, "the findings as GitHub Actions workflow commands")
	fl.BoolVar(&f.placed, "placed", false, "with --sarif: only the findings arena placed in a file (GitHub code scanning refuses a file holding one without)")
	fl.StringVarP(&f.out, "output", "o", "", "write to this new file instead of stdout")
	return cmd
}

func (a *app) runExport(log string, f exportFlags) error {
	if n := btoi(f.html) + btoi(f.md) + btoi(f.json) + btoi(f.sarif) + btoi(f.annotations); n > 1 {
		return usagef("export: give one of --html, --md, --json, --sarif and --annotations")
	}
	if f.placed && !f.sarif {
		return usagef("export: --placed goes with --sarif")
	}
	format := page.FormatHTML
	switch {
	case f.md:
		format = page.FormatMarkdown
	case f.json:
		format = page.FormatJSON
	}
	var err error
	if f.sarif || f.annotations {
		err = a.exportFindings(log, f)
	} else {
		_, err = page.ExportLog(log, format, a.stdout, f.out)
	}
	var werr *trust.WriteError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrNotExist) && !errors.As(err, &werr):
		return usageCause(err, "export: %s: no such file", trust.Text(log))
	case errors.As(err, &werr) && !errors.Is(err, fs.ErrExist):
		return err
	}
	return usagef("export %s: %w", trust.Text(log), err)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
