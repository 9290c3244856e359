package settings

import (
	"strings"
)

// applyFlags applies the command line, the most specific intent.
func (l *loader) applyFlags() error {
	for _, apply := range []func() error{
		l.defenderFlag, l.challengersFlag, l.maxRoundsFlag, l.timeoutFlag, l.logFlags, l.budgetFlags, l.minFamiliesFlag,
	} {
		if err := apply(); err != nil {
			return err
		}
	}
	return nil
}

func (l *loader) defenderFlag() error {
	if l.flags.Defender == nil {
		return nil
	}
	o := flagOrigin("defender")
	name := strings.TrimSpace(*l.flags.Defender)
	if name == "" {
		return o.errorf(keyDefender, "no agent name given")
	}
	l.s.Defender = name
	l.s.src[keyDefender] = o
	return nil
}

// challengersFlag accepts names as separate values or comma-separated, so
// it works whether the caller split the flag or not.
func (l *loader) challengersFlag() error {
	if l.flags.Challengers == nil {
		return nil
	}
	o := flagOrigin("challengers")
	var names []string
	var srcs []origin
	for _, v := range l.flags.Challengers {
		for _, name := range splitNames(v) {
			names = append(names, name)
			srcs = append(srcs, o)
		}
	}
	if len(names) == 0 {
		return o.errorf(keyChallengers, "no agent name given")
	}
	l.setChallengers(names, srcs, o)
	return nil
}

func (l *loader) maxRoundsFlag() error {
	if l.flags.MaxRounds == nil {
		return nil
	}
	o := flagOrigin("max-rounds")
	if err := checkMaxRounds(*l.flags.MaxRounds); err != nil {
		return o.err(keyMaxRounds, err.Error(), err)
	}
	l.s.MaxRounds = *l.flags.MaxRounds
	l.s.src[keyMaxRounds] = o
	return nil
}

// timeoutFlag sets timeout_per_cli; finish then applies it to every agent.
func (l *loader) timeoutFlag() error {
	if l.flags.Timeout == nil {
		return nil
	}
	o := flagOrigin("timeout")
	d, err := parseDuration(*l.flags.Timeout)
	if err != nil {
		return o.err(keyTimeoutPerCLI, err.Error(), err)
	}
	l.s.TimeoutPerCLI = d
	l.s.src[keyTimeoutPerCLI] = o
	return nil
}

func (l *loader) logFlags() error {
	if p := l.flags.LogDir; p != nil {
		o := flagOrigin("log-dir")
		if strings.TrimSpace(*p) == "" {
			return o.errorf(keyLogPath, "no directory given")
		}
		dir, err := expandHome(*p, l.env.Home)
		if err != nil {
			return o.err(keyLogPath, err.Error(), err)
		}
		l.s.DebateLogPath = dir
		l.s.src[keyLogPath] = o
	}
	if l.flags.NoLog != nil {
		l.s.SaveDebateLogs = !*l.flags.NoLog
		l.s.src[keySaveLogs] = flagOrigin("no-log")
	}
	if l.flags.LogDir != nil && !l.s.SaveDebateLogs {
		// Easy to miss: the directory was asked for but nothing will be written.
		l.warn(flagOrigin("log-dir"), "", "debate logs are off ("+keySaveLogs+" from "+l.s.Source(keySaveLogs)+"); the directory is not used")
	}
	return nil
}
