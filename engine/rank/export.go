package rank

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/arenadebate/arena/challengers"
	"github.com/arenadebate/arena/challengers/trust"
	"github.com/arenadebate/arena/engine"
)

// ExportRepos makes, for each repository, the private copy of its
// branch's tree its fact seat works in (trust.ExportTree): a seat is a
// model CLI, which would read the repository's own configuration for it
// (hooks, MCP servers, instruction files) if it ran in the repository.
// cleanup removes the copies, those made before an error too.
func ExportRepos(cfg *Config) (cleanup func(), err error) {
	var dirs []string
	cleanup = func() {
		for _, d := range dirs {
			_ = os.RemoveAll(d)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	for i := range cfg.Repos {
		r := &cfg.Repos[i]
		dir, _, err := challengers.TempDir("arena-rank-" + engine.Slug(r.Label, 20) + "-")
		if err != nil {
			return cleanup, fmt.Errorf("a copy of repository %s for its fact seat: %w", r.Label, err)
		}
		dirs = append(dirs, dir)
		ex, err := trust.ExportTree(ctx, r.Path, r.Git.Head, dir)
		if err != nil {
			return cleanup, fmt.Errorf("a copy of repository %s for its fact seat: %w", r.Label, err)
		}
		r.WorkDir, r.LeftOut, r.CopyFiles, r.CopyBytes = dir, ex.LeftOut, ex.Files, ex.Bytes
	}
	return cleanup, nil
}
