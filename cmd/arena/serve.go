package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/settings"
	"github.com/arenadebate/arena/tui/loopback"
	"github.com/arenadebate/arena/tui/mcpserver"
	"github.com/arenadebate/arena/tui/page/serve"
)

// arena serve: the log directories as a local archive in a browser
// (tui/page/serve), behind arena mcp --http's guards.

var serveExits = exits{
	{Code: exitOK, Means: "stopped (SIGINT, SIGTERM)"},
	{Code: exitError, Means: "the server failed"},
	{Code: exitUsage, Means: "usage error (an --addr that is not loopback, a token file that is not yours alone, a path that is not a directory)"},
}

type serveFlags struct {
	addr      string
	tokenFile string
}

func (a *app) serveCmd(cf *commonFlags) *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve [DIR...] [--addr 127.0.0.1:PORT]",
		Short: "Browse your runs in a web browser: the list, each run's page, live runs, stats as plots",
		Long: `serve is a local, read-only archive of your log directories (those named, or
the log directory and arena verdict's), in a web browser:

  /          the runs, newest first, filtered by protocol, result, agent and
             date, with a search
  a run      its page (arena export's): the question, the seats, every reply,
             the tables, the outcome, the ledger, the costs; a run still going
             is followed live as its log grows
  /stats     arena stats as plots: agreement, flips, first-position picks,
             self-preference, ratings, each with its interval and count

It listens on a loopback address only, and every request must carry a secret:
any user of the machine can reach a loopback port. The URL it prints carries
the token once, then a cookie (HttpOnly, SameSite=Strict) does. A request for
another host name, or from another site's page, is refused. The token is in
--token-file (default ~/.local/state/arena/serve-token, made 0600 if missing),
held to the rules of arena mcp's: yours, private, 32 printable bytes or more.`,
		Example: `  arena serve                        # the usual log directories
  arena serve debate-logs/ ../other/debate-logs --addr 127.0.0.1:8788`,
		RunE: func(cmd *cobra.Command, args []string) error { return a.runServe(cmd, cf, &f, args) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.addr, "addr", "127.0.0.1:8788", "the loopback address to listen on (host:port; port 0 picks one)")
	fl.StringVar(&f.tokenFile, "token-file", "", "the file holding the token, 32 printable bytes or more, yours and private (made 0600 if missing; default: serve-token in arena's state directory)")
	return cmd
}

func (a *app) runServe(cmd *cobra.Command, cf *commonFlags, f *serveFlags, dirs []string) error {
	s, err := a.loadSettings(cmd, cf)
	if err != nil {
		return err
	}
	if len(dirs) == 0 {
		dirs = s.LogDirs(a.env)
	}
	for _, d := range dirs {
		if st, err := os.Stat(d); err == nil && !st.IsDir() {
			return usagef("serve: %s is not a directory (arena export LOG makes one run's page)", trust.Text(d))
		}
	}
	path := f.tokenFile
	if path == "" {
		if path = a.statePath("serve-token"); path == "" {
			return usagef("no home directory is known to keep the token in: give --token-file")
		}
	}
	token, err := mcpserver.Token(path, true)
	if err != nil {
		return usageCause(err, "%v", err)
	}
	ln, err := loopback.Listen(f.addr, "its archive", "its pages are your logs, and every user of the machine could reach another address")
	if err != nil {
		return usagef("--addr %w", err)
	}
	defer ln.Close()
	refused := func(r *http.Request, code int, why string) {
		fmt.Fprintf(trust.Writer{W: a.stderr}, "arena serve: refused %s %s (%d): %s\n", r.Method, r.URL.Path, code, why)
	}
	srv, err := serve.New(serve.Options{Dirs: dirs, Token: token, ShadowGate: s.ShadowEscalationGate, OnRefuse: refused}, ln.Addr())
	if err != nil {
		return err
	}
	if err := srv.Warm(); err != nil {
		return usagef("serve: %w", err)
	}
	fmt.Fprintf(a.stderr, "arena serve: %s\n", serve.URL(ln, token))
	fmt.Fprintf(a.stderr, "arena serve: open that URL once (it carries the token in %s); Ctrl+C stops\n", path)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	return srv.Serve(ctx, ln)
}

// statePath is name in arena's state directory ("" when no home is
// known).
func (a *app) statePath(name string) string {
	if dir := settings.StateDir(a.env); dir != "" {
		return filepath.Join(dir, name)
	}
	return ""
}
