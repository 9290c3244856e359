package rank

import (
	"errors"
	"os"
	"strings"

	"github.com/arenadebate/arena/challengers/trust"
)

// WriteReport writes the JSON report and says where: to out, a new file
// (checked by Read before the run, created exclusively now), else beside
// the debate log at logPath under a free name, else rank-report.json (or
// a free variant) in the working directory. It never replaces a file.
func WriteReport(data []byte, out, logPath string) (string, error) {
	switch {
	case out != "":
		return out, writeExclusive(out, data)
	case logPath != "":
		return trust.WriteNew(strings.TrimSuffix(logPath, ".jsonl")+".json", data)
	}
	return trust.WriteNew("rank-report.json", data)
}

// writeExclusive creates path (it must not exist) and writes data; a
// failed write removes the partial file.
func writeExclusive(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	if err := errors.Join(werr, f.Close()); err != nil {
		os.Remove(path)
		return err
	}
	return nil
}
