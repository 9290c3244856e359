package settings

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/arenadebate/arena/challengers"
)

// finish checks what could only be checked once every layer was applied:
// agent names may refer to custom agents, and timeouts depend on the final
// timeout_per_cli.
func (l *loader) finish() error {
	if err := l.fillAgents(); err != nil {
		return err
	}
	if _, ok := l.s.Agents[l.s.Defender]; !ok {
		return l.s.src[keyDefender].errorf(keyDefender, "%s", l.unknownAgent(l.s.Defender))
	}
	if err := l.resolveChallengers(); err != nil {
		return err
	}
	return l.checkSeats()
}

// fillAgents gives every agent its effective timeout and output cap, then
// validates it. --timeout beats an agent's own timeout: a flag is the most
// specific intent.
func (l *loader) fillAgents() error {
	for _, name := range l.s.agentNames() {
		a, m := l.s.Agents[name], l.s.agents[name]
		switch {
		case l.flags.Timeout != nil:
			a.Timeout, m.timeout = l.s.TimeoutPerCLI, "flag --timeout"
		case a.Timeout == 0:
			a.Timeout, m.timeout = l.s.TimeoutPerCLI, keyTimeoutPerCLI
		}
		if a.OutputCap == 0 {
			a.OutputCap = l.s.OutputCap
		}
		l.guessBilling(&a, m)
		if err := a.Validate(); err != nil {
			key, msg := keyAgents+"."+name, err.Error()
			var fe *challengers.FieldError
			if errors.As(err, &fe) {
				key, msg = key+"."+fe.Field, fe.Msg
			}
			return m.def.err(key, msg, err)
		}
		l.s.Agents[name] = a
	}
	return nil
}

func (l *loader) unknownAgent(name string) string {
	return fmt.Sprintf("unknown agent %q (known: %s)", name, strings.Join(l.s.agentNames(), ", "))
}

// resolveChallengers checks named challengers, or discovers them when
// none were named. An unknown name the user wrote is an error; one from
// doctor's cache is only stale, so it is skipped.
func (l *loader) resolveChallengers() error {
	names, srcs := l.s.Challengers, l.challengerSrc
	explicit := names != nil
	if !explicit {
		names, srcs = l.discoverChallengers()
	}
	out := []string{}
	for i, name := range names {
		o := srcs[i]
		_, known := l.s.Agents[name]
		switch {
		case !known && explicit:
			return o.errorf(keyChallengers, "%s", l.unknownAgent(name))
		case !known:
			l.warn(o, keyChallengers, fmt.Sprintf("unknown agent %q, skipped (run arena doctor to refresh)", name))
		case name == l.s.Defender:
			// A discovered list may hold the defender as a matter of
			// course; only a list the user wrote deserves a warning.
			if explicit {
				l.warn(o, keyChallengers, fmt.Sprintf("%q is the defender; dropped from the challengers", name))
			}
		case slices.Contains(out, name):
			l.warn(o, keyChallengers, fmt.Sprintf("%q is listed twice; keeping the first", name))
		default:
			out = append(out, name)
		}
	}
	l.s.Challengers = out
	if len(out) == 0 {
		return l.noChallengers(explicit)
	}
	return nil
}

// noChallengers: a list the user wrote that ends up empty is a mistake; an
// empty discovered one is left for the caller to report, since doctor
// explains better what is missing.
func (l *loader) noChallengers(explicit bool) error {
	o := l.s.src[keyChallengers]
	if explicit {
		return o.errorf(keyChallengers, "no challenger left once the defender %q is left out", l.s.Defender)
	}
	l.s.NoChallengers = origin{}.warning(keyChallengers, "none usable ("+o.String()+"); run arena doctor, or name some with --challengers")
	return nil
}
