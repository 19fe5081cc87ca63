package io.periscope.runtime;

import io.periscope.config.DataDir;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The single-writer guard of a data directory: a service holds it while it runs, and the command
 * line holds it while it writes the journal itself, so the two never write the same entities at
 * once.
 */
public final class DataDirLock implements AutoCloseable {
  private final FileChannel channel;
  private final FileLock lock;

  private DataDirLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  public static Optional<DataDirLock> tryAcquire(Path dataDir) throws IOException {
    DataDir.create(dataDir);
    FileChannel channel =
        FileChannel.open(
            dataDir.resolve("periscope.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    FileLock lock;
    try {
      lock = channel.tryLock();
    } catch (java.nio.channels.OverlappingFileLockException e) {
      lock = null;
    }
    if (lock == null) {
      channel.close();
      return Optional.empty();
    }
    return Optional.of(new DataDirLock(channel, lock));
  }

  /** Waits up to {@code patience} for a command-line writer to finish with the directory. */
  public static DataDirLock acquire(Path dataDir, Duration patience)
      throws IOException, InterruptedException {
    Instant deadline = Instant.now().plus(patience);
    while (true) {
      Optional<DataDirLock> lock = tryAcquire(dataDir);
      if (lock.isPresent()) return lock.get();
      if (Instant.now().isAfter(deadline)) {
        throw new IllegalStateException("another Periscope process is using " + dataDir);
      }
      Thread.sleep(200);
    }
  }

  @Override
  public void close() throws IOException {
    lock.release();
    channel.close();
  }
}
