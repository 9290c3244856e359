package settings

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// scalar returns a node's text, refusing lists and mappings.
func scalar(n *yaml.Node, want string) (string, error) {
	if n.Kind != yaml.ScalarNode {
		return "", fmt.Errorf("must be %s, got a %s", want, kindName(n))
	}
	return n.Value, nil
}

func intValue(n *yaml.Node) (int, error) {
	s, err := scalar(n, "a whole number")
	if err != nil {
		return 0, err
	}
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("%q is not a whole number", s)
	}
	return v, nil
}

func checkMaxRounds(n int) error {
	switch {
	case n < 1:
		return fmt.Errorf("must be at least 1, got %d", n)
	case n > MaxRoundsLimit:
		return fmt.Errorf("must be at most %d, got %d", MaxRoundsLimit, n)
	}
	return nil
}

func maxRoundsValue(_ *loader, n *yaml.Node) (int, error) {
	v, err := intValue(n)
	if err != nil {
		return 0, err
	}
	return v, checkMaxRounds(v)
}

// boolValue accepts YAML 1.2 booleans and, because hand-written files are
// often YAML 1.1 in spirit, yes/no and on/off.
func boolValue(_ *loader, n *yaml.Node) (bool, error) {
	s, err := scalar(n, "true or false")
	if err != nil {
		return false, err
	}
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "yes", "on":
		return true, nil
	case "false", "no", "off":
		return false, nil
	}
	return false, fmt.Errorf("%q is not true or false", s)
}

// nameValue is an agent name; whether it is a known one is checked once
// every file has been read, since a custom agent may be defined later.
func nameValue(_ *loader, n *yaml.Node) (string, error) {
	s, err := scalar(n, "an agent name")
	if err != nil {
		return "", err
	}
	if s = strings.TrimSpace(s); s == "" {
		return "", errors.New("is empty")
	}
	return s, nil
}

// pathValue is a non-empty path with "~" expanded.
func pathValue(l *loader, n *yaml.Node) (string, error) {
	s, err := scalar(n, "a path")
	if err != nil {
		return "", err
	}
	if strings.TrimSpace(s) == "" {
		return "", errors.New("is empty")
	}
	return expandHome(s, l.env.Home)
}

func durationValue(_ *loader, n *yaml.Node) (time.Duration, error) {
	s, err := scalar(n, "a duration")
	if err != nil {
		return 0, err
	}
	return parseDuration(s)
}

// parseDuration accepts a whole number of seconds (the plugin's form) or a
// Go duration such as 90s or 2m.
func parseDuration(s string) (time.Duration, error) {
	t := strings.TrimSpace(s)
	var d time.Duration
	if secs, err := strconv.ParseInt(t, 10, 64); err == nil {
		if secs > math.MaxInt64/int64(time.Second) {
			return 0, fmt.Errorf("%q is too long", s)
		}
		d = time.Duration(secs) * time.Second
	} else if d, err = time.ParseDuration(t); err != nil {
		return 0, fmt.Errorf("%q is not a duration (use 90s, 2m, or a number of seconds)", s)
	}
	if d <= 0 {
		return 0, fmt.Errorf("must be more than 0, got %q", s)
	}
	return d, nil
}

func sizeValue(_ *loader, n *yaml.Node) (int64, error) {
	s, err := scalar(n, "a size")
	if err != nil {
		return 0, err
	}
	return parseSize(s)
}

// sizeUnits are binary whatever the spelling: nobody sizing an output
// buffer means 8,000,000 when writing 8MB.
var sizeUnits = map[string]int64{
	"": 1, "b": 1,
	"k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10,
	"m": 1 << 20, "mb": 1 << 20, "mib": 1 << 20,
	"g": 1 << 30, "gb": 1 << 30, "gib": 1 << 30,
}

// parseSize reads a byte count such as 1048576, 512KiB or 8MiB.
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	digits := strings.TrimLeft(t, "0123456789")
	num, unit := t[:len(t)-len(digits)], strings.ToLower(strings.TrimSpace(digits))
	mult, ok := sizeUnits[unit]
	n, err := strconv.ParseInt(num, 10, 64)
	if !ok || err != nil {
		return 0, fmt.Errorf("%q is not a size (use a number of bytes, or 512KiB, 8MiB)", s)
	}
	switch {
	case n == 0:
		return 0, fmt.Errorf("must be more than 0, got %q", s)
	case n > math.MaxInt64/mult:
		return 0, fmt.Errorf("%q is too large", s)
	}
	return n * mult, nil
}

// items reads a list of strings. A lone scalar is refused rather than split
// on spaces, which would break arguments that contain spaces.
func items(n *yaml.Node, example string) ([]string, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("must be a list, e.g. %s, got a %s", example, kindName(n))
	}
	out := make([]string, 0, len(n.Content))
	for _, el := range n.Content {
		el = resolve(el)
		switch {
		case el.Kind != yaml.ScalarNode:
			return nil, &nodeError{el, fmt.Errorf("each entry must be a string, got a %s", kindName(el))}
		case isNull(el):
			return nil, &nodeError{el, errors.New(`an entry has no value (write "" for an empty string)`)}
		}
		out = append(out, el.Value)
	}
	return out, nil
}

// splitNames splits comma-separated agent names, dropping empty ones.
func splitNames(s string) []string {
	var out []string
	for part := range strings.SplitSeq(s, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// expandHome replaces a leading "~" with the home directory.
func expandHome(p, home string) (string, error) {
	if p != "~" && !strings.HasPrefix(p, "~/") && !strings.HasPrefix(p, "~"+string(filepath.Separator)) {
		return p, nil
	}
	if home == "" {
		return "", fmt.Errorf("cannot expand ~ in %q: the home directory is unknown", p)
	}
	return filepath.Join(home, p[1:]), nil
}

// formatDuration prints 2m rather than 2m0s.
func formatDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// formatSize prints a size in the largest unit that divides it exactly.
func formatSize(n int64) string {
	for _, u := range []struct {
		name string
		size int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.size && n%u.size == 0 {
			return strconv.FormatInt(n/u.size, 10) + u.name
		}
	}
	return strconv.FormatInt(n, 10)
}
