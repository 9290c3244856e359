// Package trust is arena's trust boundary: everything that comes from
// outside arena — a model's reply, a log, a file or a directory, a
// repository, an argument — crosses into arena, or back out to a
// terminal, a file or a model, through this package, and through nothing
// else:
//
//   - Text and Writer: the one terminal-safe cleaner, applied wherever
//     outside text is shown or saved: no escape sequence or control
//     character, and the characters that reorder or hide text shown as
//     <U+202E> (text.go);
//   - Open, ReadText, ReadHead, ReadAll: the one bounded reader: regular
//     files only, never more than a limit whatever Stat says (read.go);
//     OpenRoot and Dir.Open, Dir.ReadText...: the same reader beneath a
//     directory, for every file set read from one (a directory to judge, a
//     tree to test): no link followed on the way, no path out of it
//     (root.go);
//   - Git, GitCommand: the one git runner, under which a repository's
//     configuration runs nothing (git.go); ExportTree, a commit's tree for
//     a model CLI to work in, without the CLIs' configuration (export.go);
//     WorkFiles, git's own choice of a directory's files (select.go);
//   - LooksSecret: what must not leave the machine unasked (secrets.go);
//   - Fence: material under evaluation, fenced in a prompt (fence.go);
//   - Dir, CreateNew, WriteNew, OpenAppend: writes that refuse symbolic
//     links and foreign files, 0600 in 0700 (write.go); OpenDirBeneath:
//     writes beneath a person's directory (arena install's home or
//     project) through no link below it (root.go).
//
// It depends on nothing else of arena's, so every package can use it.
package trust
