package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/neardup/neardup"
	"github.com/neardup/neardup/internal/store/storetest"
)

// post sends a body with the token and returns the status and body; err
// is a transport failure.
func post(c *http.Client, url, body string) (int, []byte, error) {
	r, err := http.NewRequest("POST", url, strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Authorization", "Bearer "+token)
	resp, err := c.Do(r)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return resp.StatusCode, data, err
}

// TestConcurrentClients: 1,000 clients (200 unless NEARDUP_LONG is set,
// as in CI) add a document each, check one and
// read one back, at once. No write is lost, none answers 5xx, and the
// store holds exactly the documents acknowledged; every copy of the
// shared story is marked.
func TestConcurrentClients(t *testing.T) {
	for _, e := range storetest.Engines {
		t.Run(e, func(t *testing.T) {
			// Every client's query may wait its turn: this test is of
			// writes under load (TestQueryPool is of the refusals).
			ts := newTestServer(t, e, Options{QueryQueue: 1000, QueryWait: time.Minute})
			c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1000}, Timeout: 2 * time.Minute}
			shared := story(100, 10)
			clients := 200
			if os.Getenv("NEARDUP_LONG") != "" {
				clients = 1000
			}
			var acked, copies, marked, failures atomic.Int64
			var wg sync.WaitGroup
			for i := range clients {
				wg.Add(1)
				go func() {
					defer wg.Done()
					sents := story(uint64(1000+i), 8)
					if i%10 == 0 {
						sents = append(append([]string(nil), shared...), fmt.Sprintf("Copy %d.", i))
					}
					doc := docJSON(fmt.Sprintf("doc-%d", i), sents, "")
					code, data, err := post(c, ts.url+"/v1/documents", doc)
					if err != nil || code != 200 {
						failures.Add(1)
						t.Errorf("add %d: %d %v %.200s", i, code, err, data)
						return
					}
					var res testResults
					if err := json.Unmarshal(data, &res); err != nil || len(res.Results) != 1 || res.Results[0].Status != neardup.Added {
						t.Errorf("add %d: %s", i, data)
						return
					}
					acked.Add(1)
					if i%10 == 0 {
						copies.Add(1)
						if len(res.Results[0].Matches) > 0 {
							marked.Add(1)
						}
					}
					if code, data, err = post(c, ts.url+"/v1/query", doc); err != nil || code != 200 {
						t.Errorf("query %d: %d %v %.200s", i, code, err, data)
					}
					resp, err := c.Get(fmt.Sprintf("%s/v1/documents/doc-%d", ts.url, i))
					if err != nil || resp.StatusCode != 200 {
						t.Errorf("get %d: %v %v", i, resp, err)
					}
					if resp != nil {
						io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
					}
				}()
			}
			wg.Wait()
			st, err := ts.x.Stats(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if st.Documents != int(acked.Load()) || acked.Load() != int64(clients) {
				t.Errorf("%d documents stored, %d acknowledged of %d", st.Documents, acked.Load(), clients)
			}
			// Every copy but the first stored is marked a duplicate of one
			// stored before it, whatever the order of arrival.
			if marked.Load() != copies.Load()-1 {
				t.Errorf("%d of %d copies marked", marked.Load(), copies.Load())
			}
		})
	}
}

// TestGracefulShutdown: a server told to stop while clients add finishes
// the adds under way; the index then holds exactly the documents
// acknowledged, and reopens cleanly.
func TestGracefulShutdown(t *testing.T) {
	dsn := storetest.DSN(t, "sqlite")
	x, err := neardup.Open(t.Context(), dsn, neardup.Options{StoreText: true})
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(x, Options{Tokens: NewTokens(token), ShutdownTimeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ctx, stop := context.WithCancel(t.Context())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, ln) }()

	c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 100}, Timeout: time.Minute}
	var acked, refused atomic.Int64
	var wg sync.WaitGroup
	for w := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				body := "[" + docJSON(fmt.Sprintf("w%d-%d-a", w, i), story(uint64(w*1000+i), 6), "") + "," +
					docJSON(fmt.Sprintf("w%d-%d-b", w, i), story(uint64(w*1000+i+500), 6), "") + "]"
				code, data, err := post(c, url+"/v1/documents", body)
				switch {
				case err != nil || code == 503:
					refused.Add(1)
					return
				case code != 200:
					t.Errorf("add: %d %s", code, data)
					return
				}
				acked.Add(2)
			}
		}()
	}
	for acked.Load() < 100 {
		time.Sleep(5 * time.Millisecond)
	}
	stop()
	if err := <-served; err != nil {
		t.Errorf("serve: %v", err)
	}
	wg.Wait()
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	x, err = neardup.Open(t.Context(), dsn, neardup.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	st, err := x.Stats(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if st.Documents != int(acked.Load()) {
		t.Errorf("%d documents stored, %d acknowledged", st.Documents, acked.Load())
	}
	if faults, err := x.Verify(t.Context(), nil); err != nil || faults.Total > 0 {
		t.Errorf("verify: %v %v", faults, err)
	}
}
