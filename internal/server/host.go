package server

import (
	"fmt"
	"net"
	"net/http"
	"strings"
)

// guardHosts makes the server answer only the Host headers of this
// machine (localhost, 127.0.0.1, [::1] and the address listened on) and
// Options.Hosts when addr, where it listens, is a loopback address. It is
// called before the server answers anything.
func (s *Server) guardHosts(addr net.Addr) {
	ta, ok := addr.(*net.TCPAddr)
	if !ok || !ta.IP.IsLoopback() {
		return
	}
	// The address listened on is a name of this server too: 127.0.0.2,
	// another loopback address, was refused on its own.
	s.hosts = map[string]bool{"localhost": true, "127.0.0.1": true, "::1": true, ta.IP.String(): true}
	for _, h := range s.o.Hosts {
		if name, _, err := net.SplitHostPort(h); err == nil {
			h = name
		}
		s.hosts[strings.ToLower(strings.Trim(h, "[]"))] = true
	}
	s.loopback = fmt.Sprint(ta.Port)
}

// checkHost answers 421 to a request whose Host header names neither this
// machine nor a name of Options.Hosts, with the port listened on, when
// the server listens on a loopback address.
func (s *Server) checkHost(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.loopback != "" && !s.hostAllowed(r.Host) {
			s.writeJSON(w, r, http.StatusMisdirectedRequest, &apiError{Field: "Host",
				Msg: fmt.Sprintf("this server answers localhost, 127.0.0.1 and [::1] on port %s, and the names of its --host flags", s.loopback)})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// hostAllowed reports whether a Host header names this server.
func (s *Server) hostAllowed(host string) bool {
	name, port, err := net.SplitHostPort(host)
	if err != nil { // no port: the scheme's own
		name, port = strings.Trim(host, "[]"), "80"
	}
	if port != s.loopback || name == "" {
		return false
	}
	return s.hosts[strings.ToLower(strings.TrimSuffix(name, "."))] // a FQDN's trailing dot is the same name
}
