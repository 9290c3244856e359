package main

import (
	"fmt"
	"strings"

	mcobra "github.com/muesli/mango-cobra"
	"github.com/muesli/roff"
	"github.com/spf13/cobra"
)

// arena man: the manual page, made from the commands themselves, so it
// says what --help says. mango (muesli/mango-cobra) over cobra's own doc
// generator: it writes one page holding every command, the page a person
// installs as arena.1 (glow, mods and gum make theirs so), where cobra's
// writes a page a command and needs go-md2man and blackfriday besides.

func (a *app) manCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "man",
		Short: "Print arena's manual page (roff), made from its commands",
		Long: `man prints arena's manual page, every command in one page, as roff.
Read it with man -l, or install it where man looks.`,
		Example: `  arena man | man -l -
  arena man > ~/.local/share/man/man1/arena.1`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			unwrapLong(cmd.Root())
			page, err := mcobra.NewManPage(1, cmd.Root())
			if err != nil {
				return fmt.Errorf("make the manual page: %w", err)
			}
			page = page.WithSection("Exit codes", a.rootExits().Help()).
				WithSection("See also", "arena COMMAND --help says the same of each command, with its own exit codes.")
			_, err = fmt.Fprint(a.stdout, page.Build(roff.NewDocument()))
			return err
		},
	}
}

// unwrapLong joins the lines of each paragraph of every command's long
// help: mango makes each line a paragraph of its own, and --help's text is
// wrapped for a terminal. A paragraph with an indented or listed line
// keeps its lines.
func unwrapLong(c *cobra.Command) {
	paras := strings.Split(c.Long, "\n\n")
	for i, p := range paras {
		kept := strings.Contains(p, "\n ") || strings.Contains(p, "\n-") || strings.HasPrefix(p, " ")
		if !kept {
			paras[i] = strings.Join(strings.Fields(p), " ")
		}
	}
	c.Long = strings.Join(paras, "\n\n")
	for _, sub := range c.Commands() {
		unwrapLong(sub)
	}
}
