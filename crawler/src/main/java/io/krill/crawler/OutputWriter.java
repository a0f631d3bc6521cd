package io.krill.crawler;

import io.krill.crawler.frontier.CrawlUrl;
import io.krill.crawler.frontier.Frontier;
import io.krill.crawler.journal.Journal;
import io.krill.crawler.output.LineOutput;
import io.krill.crawler.output.WarcOutput;
import io.krill.fibers.FiberSemaphore;
import io.krill.fibers.Suspendable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.netpreserve.jwarc.WarcRecord;

/**
 * The crawl's single output writer: takes commits from fetching strands and makes them
 * durable in order WARC, JSONL, journal, so a journal line never points at output that is
 * not there. Runs on its own platform thread (file I/O and fsync never run on a carrier).
 */
final class OutputWriter implements AutoCloseable {
  /*
   * Implementation notes. A commit is one page's (or robots.txt's, or a DNS answer's) output.
   * The writer drains up to BATCH commits: appends all their WARC records as one unit, then
   * all their JSONL lines, then one journal append (Q lines, C lines, the W position line).
   * With Fsync.ALWAYS the WARC and JSONL files are forced before the journal is written and
   * the journal after; BATCH forces all three in that order every interval. After kill -9 the
   * OS has every completed write; resume cuts WARC and JSONL back to the last W line.
   */
  record Commit(List<WarcRecord> records, List<String> jsonl, List<CrawlUrl> queued, List<String> completed,
      List<Frontier.Found> found) {
    Commit(List<WarcRecord> records, List<String> jsonl, List<CrawlUrl> queued, List<String> completed) {
      this(records, jsonl, queued, completed, List.of());
    }
  }

  private static final int BATCH = 64;

  private final LinkedBlockingQueue<Commit> queue = new LinkedBlockingQueue<>();
  private final FiberSemaphore room;
  private final AtomicInteger pending = new AtomicInteger();
  private final WarcOutput warc;
  private final LineOutput jsonl;
  private final Journal journal;
  private final Frontier frontier;
  private final CrawlConfig.Fsync fsync;
  private final long fsyncIntervalNanos;
  private final long checkpointLines;
  private final Runnable onCommitted;
  /* Filled after each batch for live views; set before the first commit. */
  private RecentOutput recent;
  private final Thread thread;
  private volatile boolean closing;
  private volatile IOException failure;
  private long lastSync = System.nanoTime();
  private long checkpoints;

  OutputWriter(WarcOutput warc, LineOutput jsonl, Journal journal, Frontier frontier, CrawlConfig config,
      Runnable onCommitted) {
    this.warc = warc;
    this.jsonl = jsonl;
    this.journal = journal;
    this.frontier = frontier;
    this.fsync = config.fsync;
    this.fsyncIntervalNanos = config.fsyncInterval.toNanos();
    this.checkpointLines = config.checkpointLines;
    this.room = FiberSemaphore.create(config.outputQueue);
    this.onCommitted = onCommitted;
    this.thread = new Thread(this::loop, "krill-crawl-writer");
    this.thread.setDaemon(true);
    this.thread.start();
  }

  /** Queues a commit, waiting while the queue is full. May suspend. */
  void submit(Commit c) throws Suspendable {
    room.acquire();
    pending.incrementAndGet();
    queue.add(c);
  }

  /** @return commits not yet written */
  int pending() {
    return pending.get();
  }

  /** @return the first write failure, or null */
  IOException failure() {
    return failure;
  }

  /** Reports written lines to {@code recent} from now on; call before the first commit. */
  void reportTo(RecentOutput recent) {
    this.recent = recent;
  }

  long checkpoints() {
    return checkpoints;
  }

  String warcFile() {
    return warc.fileName();
  }

  int warcFiles() {
    return warc.fileCount();
  }

  private void loop() {
    List<Commit> batch = new ArrayList<>(BATCH);
    for (;;) {
      Commit c;
      try {
        c = queue.poll(100, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        c = null;
      }
      if (c == null) {
        syncIfDue();
        if (closing && pending.get() == 0) {
          return;
        }
        continue;
      }
      batch.clear();
      batch.add(c);
      queue.drainTo(batch, BATCH - 1);
      try {
        if (failure == null) {
          write(batch);
        }
      } catch (IOException | RuntimeException e) {
        failure = e instanceof IOException ? (IOException) e : new IOException(e);
      } finally {
        room.release(batch.size());
        pending.addAndGet(-batch.size());
        onCommitted.run();
      }
    }
  }

  private void write(List<Commit> batch) throws IOException {
    List<WarcRecord> records = new ArrayList<>();
    List<String> lines = new ArrayList<>();
    List<CrawlUrl> queued = new ArrayList<>();
    List<String> completed = new ArrayList<>();
    List<Frontier.Found> found = new ArrayList<>();
    for (Commit c : batch) {
      found.addAll(c.found());
      records.addAll(c.records());
      lines.addAll(c.jsonl());
      queued.addAll(c.queued());
      completed.addAll(c.completed());
    }
    warc.append(records); // the batch's records as one unit: one write, not one per commit
    long jsonlEnd = jsonl.append(lines);
    if (recent != null) {
      report(batch);
    }
    if (fsync == CrawlConfig.Fsync.ALWAYS) {
      warc.force();
      jsonl.force();
    }
    journal.commit(queued, found, completed, warc.position(), jsonlEnd);
    if (fsync == CrawlConfig.Fsync.ALWAYS) {
      journal.force();
    }
    frontier.completed(completed);
    syncIfDue();
    if (journal.linesSinceCheckpoint() >= checkpointLines) {
      Frontier.Checkpoint cp = frontier.checkpoint();
      if (cp != null) {
        warc.force();
        jsonl.force();
        journal.checkpoint(cp, warc.position(), jsonlEnd);
        checkpoints++;
      }
    }
  }

  /* Each commit's lines with the offset of its first WARC record (the batch went out as one write). */
  private void report(List<Commit> batch) {
    long[] offsets = warc.lastOffsets();
    int first = 0;
    for (Commit c : batch) {
      boolean has = !c.records().isEmpty() && first < offsets.length;
      recent.add(c.jsonl(), has ? warc.fileName() : null, has ? offsets[first] : -1);
      first += c.records().size();
    }
  }

  private void syncIfDue() {
    if (fsync != CrawlConfig.Fsync.BATCH || System.nanoTime() - lastSync < fsyncIntervalNanos) {
      return;
    }
    lastSync = System.nanoTime();
    try {
      warc.force();
      jsonl.force();
      journal.force();
    } catch (IOException e) {
      if (failure == null) {
        failure = e;
      }
    }
  }

  /** Writes what is queued, then closes the files. */
  @Override
  public void close() throws IOException {
    closing = true;
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    IOException first = failure;
    for (AutoCloseable c : new AutoCloseable[] {warc, jsonl, journal}) {
      try {
        c.close();
      } catch (Exception e) {
        if (first == null) {
          first = e instanceof IOException ? (IOException) e : new IOException(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}
