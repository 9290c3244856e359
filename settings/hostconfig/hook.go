package hostconfig

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/arenadebate/arena/challengers/trust"
)

// arena verdict --install-hook's git pre-push hook, which judges the
// commits being pushed. The hook carries a signature line, the SHA-256 of
// the rest of the file; arena replaces a hook only when the signature
// matches, so a hook someone else wrote, or one they edited since, is
// never touched without --force (and then kept as a backup).

const hookSignature = "# arena-verdict-hook sha256="

// hookBody is the pre-push hook; %s is the arena that installed it,
// shell-quoted, tried when arena is not on PATH.
const hookBody = `#!/bin/sh
# arena verdict pre-push hook, written by "arena verdict --install-hook".
# It judges the diff of the commits being pushed (the branch name is the
# task id) and blocks the push on reject, and on escalate too when
# ARENA_VERDICT_STRICT=1. Skip it once with git push --no-verify. If you
# edit this file it becomes yours: arena will not replace it without --force.
remote="$1"
installed=%s
arena="${ARENA_BIN:-}"
if [ -z "$arena" ]; then
	if command -v arena >/dev/null 2>&1; then
		arena=arena
	elif [ -x "$installed" ]; then
		arena="$installed"
	fi
elif ! command -v "$arena" >/dev/null 2>&1; then
	arena=""
fi
if [ -z "$arena" ]; then
	echo "arena pre-push hook: arena was not found (not on PATH${ARENA_BIN:+, and ARENA_BIN=$ARENA_BIN is not a program}, nor at $installed)." >&2
	echo "arena pre-push hook: fix it by installing arena on PATH or setting ARENA_BIN to its path; delete $0 to stop judging pushes." >&2
	if [ "${ARENA_VERDICT_STRICT:-}" = 1 ]; then
		echo "arena pre-push hook: push blocked: nothing can judge it (ARENA_VERDICT_STRICT=1; git push --no-verify skips the hook)." >&2
		exit 1
	fi
	echo "arena pre-push hook: this push goes through UNJUDGED (ARENA_VERDICT_STRICT=1 blocks it)." >&2
	exit 0
fi
tmp=$(mktemp "${TMPDIR:-/tmp}/arena-pre-push.XXXXXX") || exit 1
trap 'rm -f "$tmp"' EXIT
blocked=0
while read -r local_ref local_sha remote_ref remote_sha; do
	case "$local_sha" in
	*[!0]*) ;;
	*)
		echo "arena pre-push hook: deleting $remote_ref; nothing to judge." >&2
		continue
		;;
	esac
	if [ "$local_sha" = "$remote_sha" ]; then
		continue
	fi
	base=""
	case "$remote_sha" in
	*[!0]*)
		if git cat-file -e "$remote_sha^{commit}" 2>/dev/null; then
			base="$remote_sha"
		fi
		;;
	esac
	if [ -z "$base" ]; then
		# A new branch: against the remote's default branch, else from
		# the first commit the remote does not have.
		def=$(git symbolic-ref -q "refs/remotes/$remote/HEAD" 2>/dev/null)
		if [ -n "$def" ]; then
			base=$(git merge-base "$def" "$local_sha" 2>/dev/null)
		fi
	fi
	if [ -z "$base" ]; then
		first=$(git rev-list --reverse "$local_sha" --not --remotes="$remote" 2>/dev/null | head -n 1)
		if [ -z "$first" ]; then
			echo "arena pre-push hook: $local_ref has nothing new for $remote; nothing to judge." >&2
			continue
		fi
		base=$(git rev-parse -q --verify "$first^" 2>/dev/null) || base=$(git hash-object -t tree /dev/null)
	fi
	# The patch itself, whatever the configuration: no external diff tool
	# (difftastic), no textconv driver, no colour codes.
	if ! git -c core.fsmonitor=false --no-pager diff --no-ext-diff --no-textconv --no-color "$base" "$local_sha" >"$tmp"; then
		if [ "${ARENA_VERDICT_STRICT:-}" = 1 ]; then
			echo "arena pre-push hook: git diff failed: push blocked (ARENA_VERDICT_STRICT=1)" >&2
			blocked=1
		else
			echo "arena pre-push hook: git diff failed; this push goes through unjudged." >&2
		fi
		continue
	fi
	if [ ! -s "$tmp" ]; then
		echo "arena pre-push hook: $local_ref changes nothing; nothing to judge." >&2
		continue
	fi
	branch=${local_ref#refs/heads/}
	# One line a verdict, with its log; the whole run with
	# ARENA_VERDICT_VERBOSE=1.
	if [ "${ARENA_VERDICT_VERBOSE:-}" = 1 ]; then
		echo "arena pre-push hook: judging $branch ($base..$local_sha)" >&2
		"$arena" verdict - --task-id "$branch" --no-tui <"$tmp"
		code=$?
		case $code in
		0) said="$branch: ACCEPT" ;;
		3) said="$branch: IMPROVE" ;;
		5) said="$branch: REJECT" ;;
		6) said="$branch: ESCALATE" ;;
		*) said="" ;;
		esac
	else
		said=$("$arena" verdict - --task-id "$branch" --brief <"$tmp")
		code=$?
	fi
	log=""
	case "$said" in
	*" · log "*)
		log=" · log ${said##* · log }"
		said=${said%% · log *}
		;;
	esac
	case $code in
	0) echo "arena pre-push hook: $said$log" >&2 ;;
	3) echo "arena pre-push hook: $said: the push goes through$log" >&2 ;;
	5)
		echo "arena pre-push hook: $said: push blocked (git push --no-verify skips the hook)$log" >&2
		blocked=1
		;;
	6)
		if [ "${ARENA_VERDICT_STRICT:-}" = 1 ]; then
			echo "arena pre-push hook: $said: push blocked (ARENA_VERDICT_STRICT=1); a human must decide$log" >&2
			blocked=1
		else
			echo "arena pre-push hook: $said: a human should review it; the push goes through (ARENA_VERDICT_STRICT=1 blocks it)$log" >&2
		fi
		;;
	130)
		echo "arena pre-push hook: interrupted: push blocked" >&2
		blocked=1
		;;
	*)
		if [ "${ARENA_VERDICT_STRICT:-}" = 1 ]; then
			echo "arena pre-push hook: arena verdict failed (exit $code${said:+: $said}): push blocked (ARENA_VERDICT_STRICT=1)" >&2
			blocked=1
		else
			echo "arena pre-push hook: arena verdict failed (exit $code${said:+: $said}); this push goes through unjudged" >&2
		fi
		;;
	esac
done
exit $blocked
`

// HookScript is the hook for the arena at exe, signed.
func HookScript(exe string) []byte {
	body := fmt.Sprintf(hookBody, hookQuote(exe))
	first, rest, _ := strings.Cut(body, "\n")
	return []byte(first + "\n" + hookSignature + hookSum(first+"\n"+rest) + "\n" + rest)
}

func hookSum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// HookOurs reports whether a hook is one arena wrote and nobody edited:
// its signature matches the rest of it.
func HookOurs(b []byte) bool {
	s := string(b)
	i := strings.Index(s, "\n"+hookSignature)
	if i < 0 {
		return false
	}
	line := s[i+1:]
	end := strings.IndexByte(line, '\n')
	if end < 0 {
		return false
	}
	sum := strings.TrimPrefix(line[:end], hookSignature)
	return sum == hookSum(s[:i+1]+line[end+1:])
}

// hookQuote quotes s for sh.
func hookQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// ErrHookNotOurs says a hook is not the one arena wrote, or was edited
// since.
var ErrHookNotOurs = errors.New("not the hook arena wrote")

// hookBackup is where --install-hook --force keeps the hook it replaced.
const hookBackup = "pre-push.arena-backup"

// RemoveHook removes the pre-push hook in the hooks directory, only when
// it is the one arena wrote and nobody edited since (HookOurs), and puts
// back the hook --force replaced, saying so (restored). No hook is
// fs.ErrNotExist; another's is ErrHookNotOurs, and stays.
func RemoveHook(hooks string) (restored bool, err error) {
	path := filepath.Join(hooks, "pre-push")
	old, err := trust.ReadFile(path, 1<<20)
	if err != nil {
		return false, err
	}
	if !HookOurs(old) {
		return false, fmt.Errorf("%s: %w", path, ErrHookNotOurs)
	}
	dir, err := trust.OpenDir(hooks, false)
	if err != nil {
		return false, err
	}
	defer dir.Close()
	if err := dir.Remove("pre-push"); err != nil {
		return false, fmt.Errorf("remove %s: %w", path, err)
	}
	if _, err := dir.Stat(hookBackup); err != nil {
		return false, nil
	}
	if err := os.Rename(filepath.Join(hooks, hookBackup), path); err != nil {
		return false, fmt.Errorf("put back the hook arena replaced, %s: %w", filepath.Join(hooks, hookBackup), err)
	}
	return true, nil
}
