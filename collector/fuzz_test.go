package collector

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// FuzzFrames sends arbitrary frames after a good hello (and, on the
// MemInsight path, after startup): the collector never panics (a panic
// in a handler fails the test: startCollector). Each input is a series of frames: a byte
// that picks the kind (text, binary with a sequence number, raw binary)
// and a length, then the bytes.
func FuzzFrames(f *testing.F) {
	data := genTrace(f, 1, 4096)
	seed := func(frames ...[]byte) []byte {
		var b []byte
		for _, fr := range frames {
			b = append(b, fr...)
		}
		return b
	}
	frame := func(kind byte, body []byte) []byte {
		return append([]byte{kind, byte(len(body) >> 8), byte(len(body))}, body...)
	}
	chunk := func(seq uint64, b []byte) []byte {
		m := make([]byte, 8+len(b))
		binary.BigEndian.PutUint64(m, seq)
		copy(m[8:], b)
		return m
	}
	f.Add(seed(frame(1, chunk(0, data[:1000])), frame(1, chunk(1, data[1000:3000]))))
	f.Add(seed(frame(1, chunk(0, data[:10])), frame(0, []byte(`{"type":"end","last":0}`))))
	f.Add(seed(frame(0, []byte(`{"type":"script","name":"../../etc/passwd","source":"x"}`))))
	f.Add(seed(frame(1, chunk(5, data[:100]))))
	f.Add(seed(frame(2, []byte{1, 2})))
	f.Add(seed(frame(0, []byte(`{"type":"end","dropped":{"fromSeq":-1,"bytes":-5}}`))))
	f.Add(seed(frame(3, data[:2000]), frame(3, []byte{0xff, 0xff})))
	f.Add([]byte{})
	tc := startCollector(f, Config{Open: true, HelloTimeout: time.Second, ResumeWait: 50 * time.Millisecond, MaxFrame: 1 << 16})
	f.Fuzz(func(t *testing.T, in []byte) {
		meminsight := len(in) > 0 && in[0] == 3
		var ws *websocket.Conn
		var err error
		if meminsight {
			d := websocket.Dialer{Subprotocols: []string{MemInsightSubprotocol}}
			ws, _, err = d.Dial(tc.URL+"/", nil)
			if err == nil {
				ws.WriteMessage(websocket.TextMessage, []byte("startup"))
			}
		} else {
			d := websocket.Dialer{Subprotocols: []string{Subprotocol}}
			ws, _, err = d.Dial(tc.URL+CollectPath, nil)
			if err == nil {
				ws.WriteJSON(map[string]any{"type": "hello", "protocol": 1})
				ws.SetReadDeadline(time.Now().Add(5 * time.Second))
				ws.ReadMessage()
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		defer ws.Close()
		go func() {
			for {
				if _, _, err := ws.ReadMessage(); err != nil {
					return
				}
			}
		}()
		for len(in) >= 3 {
			kind, n := in[0]%4, int(in[1])<<8|int(in[2])
			in = in[3:]
			n = min(n, len(in))
			body := in[:n]
			in = in[n:]
			mt := websocket.BinaryMessage
			if kind == 0 {
				mt = websocket.TextMessage
			}
			if ws.WriteMessage(mt, body) != nil {
				break
			}
		}
		if tc.panics.Load() > 0 {
			t.Fatal("the collector panicked")
		}
	})
}
