// The Node host's trace sink: the trace file (MEMTRACE_OUT, or the one
// memtrace node names), claimed so that neither another process's trace
// nor a file memtrace did not write is overwritten, and written by direct
// I/O where the file system takes it. The core hands its bytes over
// (writer.js, setSink) through write; idle writes the file's tail (every
// second the program idles), close ends it.

import { UPDATE_CURRENT_SCRIPT, CREATE_OBJ } from '../consts.js';
import { buffer as writerBuffer } from '../writer.js';
import { errorText } from '../natives.js';

// openFileSink opens the trace file path with fs (Node's fs module) for
// process proc: with direct, by direct I/O where the file system takes
// it; say(msg) tells the user (a name taken: the trace goes beside it);
// stop(reason) ends the trace (a write the file refused). It returns
// {write, idle, close, file: a file is open, error: why none could be}.
export function openFileSink(fs, proc, path, direct, say, stop) {
  let fd = -1;
  // A trace file that cannot be opened (a directory that does not exist,
  // no permission) leaves the program untraced, not failed: the reason
  // goes where a write failure's does (see failed), once the shim's state
  // is set up.
  let openError;
  let outPath = path;
  let outLock = ''; // the lock file this process holds beside its trace
  {
    try {
      outPath = claimOut(outPath);
      fd = fs.openSync(outPath, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC | (fs.constants.O_NOFOLLOW || 0), 0o644);
    } catch (e) {
      fd = -1;
      openError = e;
    }
  }

  // claimOut returns the file this process writes its trace to: path,
  // unless another live process holds it (two processes of a program
  // instrumented ahead of time, given one MEMTRACE_OUT, wrote one file
  // and left a corrupt trace) or it is a file memtrace did not write (a
  // user's file, a link: never truncated): then path.<pid>, said on
  // standard error. The holder keeps path.lock (O_EXCL, its pid) until
  // its trace ends; a lock whose process is gone is taken over.
  function claimOut(path) {
    // A device or a pipe (/dev/null for an untraced process, /dev/full in
    // tests) is written as it is: no file of anyone's to keep, no lock.
    let st0;
    try { st0 = fs.lstatSync(path); } catch { st0 = undefined; }
    if (st0 !== undefined && !st0.isFile() && !st0.isSymbolicLink() && !st0.isDirectory()) return path;
    const mine = String(proc !== undefined ? proc.pid : 0);
    const taken = (why) => {
      const alt = path + '.' + mine;
      say(path + ' ' + why + ': this process (' + mine + ') writes its trace to ' + alt);
      return alt;
    };
    const lock = path + '.lock';
    for (let tries = 0; ; tries++) {
      try {
        const lfd = fs.openSync(lock, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW || 0), 0o644);
        try { fs.writeSync(lfd, mine + '\n'); } finally { fs.closeSync(lfd); }
        outLock = lock;
        break;
      } catch (e) {
        if (e === null || typeof e !== 'object' || e.code !== 'EEXIST' || tries > 2) {
          // No lock can be made here (a read-only directory): the open
          // says why, or the trace goes on without a lock.
          break;
        }
        let holder = 0;
        // (At install: the program has patched nothing yet.)
        try { holder = parseInt(fs.readFileSync(lock, 'utf8'), 10) || 0; } catch { holder = 0; }
        if (holder > 0 && holder !== +mine && alive(holder)) return taken('is being written by process ' + holder);
        if (holder === +mine) { outLock = lock; break; }
        try { fs.unlinkSync(lock); } catch { /* raced: try again */ }
      }
    }
    let st;
    try { st = fs.lstatSync(path); } catch { return path; } // not there: ours to make
    if (st.isSymbolicLink()) return dropLock(taken('is a symbolic link (memtrace writes through none)'));
    if (!st.isFile()) return dropLock(taken('is not a regular file'));
    if (st.size > 0 && !ourTrace(path)) return dropLock(taken('is a file memtrace did not write (not a trace)'));
    return path;
  }
  // dropLock gives up the lock of the name this process does not write.
  function dropLock(alt) {
    if (outLock !== '') {
      try { fs.unlinkSync(outLock); } catch { /* ignore */ }
      outLock = '';
    }
    return alt;
  }
  // alive reports whether process pid exists (EPERM: another user's).
  function alive(pid) {
    try {
      proc.kill(pid, 0);
      return true;
    } catch (e) {
      return e !== null && typeof e === 'object' && e.code === 'EPERM';
    }
  }
  // ourTrace reports whether the file at path begins as every trace the
  // shim writes does: UPDATE_CURRENT_SCRIPT of script 0, then the global
  // object's CREATE_OBJ.
  function ourTrace(path) {
    let f = -1;
    try {
      f = fs.openSync(path, 'r');
      const b = new Uint8Array(10);
      const n = fs.readSync(f, b, 0, 10, 0);
      return n === 10 && b[0] === UPDATE_CURRENT_SCRIPT && b[1] === 0 && b[2] === 0 && b[3] === 0 && b[4] === 0 && b[5] === CREATE_OBJ &&
        b[6] === 0xff && b[7] === 0xff && b[8] === 0xff && b[9] === 0xff;
    } catch {
      return false;
    } finally {
      if (f >= 0) try { fs.closeSync(f); } catch { /* ignore */ }
    }
  }
  let fsWriteSync = fs.writeSync;
  // A trace of a regular file goes to the disk by direct I/O (O_DIRECT, a
  // second descriptor) where the file system takes it: through the page
  // cache, every 4 KB of a trace of tens of GB cost the kernel a fresh
  // page and a copy (2.6 s of CPU per GiB on a virtual machine whose host
  // takes back the pages a deleted file gave up, 0.2 s per GiB at best,
  // against 0.08 direct), and the trace evicted everything else cached.
  // Direct writes are whole blocks from an aligned address to aligned
  // offsets: the writer's own buffer is the staging area (no byte copied
  // on the way), whose aligned start (sa) is found by probing; the whole
  // blocks are written, and the rest (sr bytes, under a block) waits at sa
  // for the next hand-over (sink); syncTail
  // writes it through the ordinary descriptor (every second the program
  // idles, and at the end), so that the file then holds every byte. Writes
  // are positioned (foff) once direct I/O is on: the two descriptors
  // share no offset. MEMTRACE_DIRECT=0 turns it off.
  let BLOCK = 4096;
  let dfd = -1;
  let positioned = false;
  let stage = null;
  let sa = 0;
  let sr = 0;
  let foff = 0;
  if (fd >= 0 && direct) openDirect(outPath);
  function openDirect(path) {
    const O = fs.constants;
    if (O === null || typeof O !== 'object' || typeof O.O_DIRECT !== 'number') return;
    try {
      if (!fs.fstatSync(fd).isFile()) return;
      dfd = fs.openSync(path, O.O_WRONLY | O.O_DIRECT);
    } catch {
      dfd = -1;
      return;
    }
    stage = writerBuffer();
    let at = -1;
    for (let o = 0; o < BLOCK && at < 0; o += 8) {
      try {
        fsWriteSync(dfd, stage, o, BLOCK, 0);
        at = o;
      } catch (e) {
        if (e === null || typeof e !== 'object' || e.code !== 'EINVAL') break;
      }
    }
    try {
      fs.ftruncateSync(fd, 0); // the probe's block
    } catch {
      at = -1;
    }
    positioned = true;
    if (at < 0) {
      closeDirect();
      return;
    }
    sa = at;
  }
  function closeDirect() {
    if (dfd >= 0) {
      try { fs.closeSync(dfd); } catch { /* ignore */ }
      dfd = -1;
    }
  }
  // pwrite writes n bytes of b from at to file offset pos.
  function pwrite(f, b, at, n, pos) {
    let done = 0;
    while (done < n) done += fsWriteSync(f, b, at + done, n - done, pos + done);
  }
  function writeAll(f, b, at, n) {
    if (positioned) {
      pwrite(f, b, at, n, foff);
      foff += n;
      return;
    }
    let done = 0;
    while (done < n) done += fsWriteSync(f, b, at + done, n - done);
    fpos += n;
  }
  // A file that refuses the trace's bytes (a full disk, the process's
  // file size limit, an I/O error) ends the trace, not the program: the
  // file is cut back to whole hand-overs (good: the end of the last one it
  // holds whole; hand-overs are whole entries), the reason goes where the
  // time limit's does (stopTrace), and nothing more is written.
  let fpos = 0; // the ordinary descriptor's offset, before direct I/O
  let good = 0;
  let failed = false;
  function writeFailed(e) {
    failed = true;
    closeDirect();
    try { fs.ftruncateSync(fd, good); } catch { /* not a regular file */ }
    stop('writing the trace failed (' + errorText(e) + '); it ends after its first ' + good + ' bytes, and the rest of the run was not traced');
  }
  // sink hands over buf[from, to) (writer.js) and returns where the next
  // bytes go: 0, but for direct I/O, whose staging area is the writer's
  // buffer from the aligned start sa: whole blocks are written from there
  // and the rest (sr bytes, under a block) moves back to sa, to be written
  // with the next hand-over.
  function sink(buf, from, to) {
    if (failed || fd < 0) return 0;
    try {
      return sinkFile(buf, from, to);
    } catch (e) {
      writeFailed(e);
      return 0;
    }
  }
  function sinkFile(buf, from, to) {
    if (dfd < 0) {
      writeAll(fd, buf, from, to - from);
      good = positioned ? foff : fpos;
      return 0;
    }
    if (from !== sa + sr) {
      // the first hand-over, encoded from 0 before sa was known
      buf.copyWithin(sa + sr, from, to);
      to += sa + sr - from;
    }
    const t = to - sa;
    const w = t - (t & (BLOCK - 1));
    const at = foff;
    try {
      writeAll(dfd, buf, sa, w);
    } catch {
      // The file system refused a direct write after all (or the file
      // takes no more bytes): the staged bytes, and everything after
      // them, through the page cache, first the previous hand-over's
      // tail, so that a file that takes no more keeps that hand-over.
      closeDirect();
      const tail = sr;
      sr = 0;
      writeAll(fd, buf, sa, tail);
      good = foff;
      writeAll(fd, buf, sa + tail, t - tail);
      good = foff;
      return 0;
    }
    // The file now holds this hand-over whole, or the one before it (its
    // tail, sr bytes, came first in the staging area).
    if (w === t) good = at + t;
    else if (w >= sr && at + sr > good) good = at + sr;
    sr = t - w;
    if (sr > 0) buf.copyWithin(sa, sa + w, sa + t);
    return sa + sr;
  }
  // syncTail writes the staged tail through the ordinary descriptor (see
  // sink; the next whole block covers it again).
  function syncTail() {
    if (dfd < 0 || sr === 0) return;
    try {
      pwrite(fd, stage, sa, sr, foff);
      good = foff + sr;
    } catch { /* ignore */ }
  }


  return {
    write: sink,
    idle: syncTail,
    close() {
      syncTail();
      closeDirect();
      if (fd >= 0) {
        try { fs.closeSync(fd); } catch { /* ignore */ }
        fd = -1;
      }
      if (outLock !== '') {
        try { fs.unlinkSync(outLock); } catch { /* ignore */ }
        outLock = '';
      }
    },
    file: fd >= 0,
    error: openError,
  };
}
