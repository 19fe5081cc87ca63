package io.periscope.crypto;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotSame;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.security.MessageDigest;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import org.junit.Test;

public class PerThreadTest {
  @Test
  public void aThreadKeepsItsObjectAndAnotherThreadGetsItsOwn() throws Exception {
    ThreadLocal<Mac> macs = PerThread.of(Mac::getInstance, "HmacSHA256");
    Mac mine = macs.get();
    assertEquals("HmacSHA256", mine.getAlgorithm());
    assertSame(mine, macs.get());
    Mac theirs =
        CompletableFuture.supplyAsync(macs::get, r -> new Thread(r).start())
            .get(10, TimeUnit.SECONDS);
    assertNotSame(mine, theirs);
  }

  @Test
  public void aMissingAlgorithmIsABrokenPlatformNotAnInput() {
    ThreadLocal<MessageDigest> none = PerThread.of(MessageDigest::getInstance, "NO-SUCH-DIGEST");
    IllegalStateException thrown = assertThrows(IllegalStateException.class, none::get);
    assertTrue(thrown.getMessage(), thrown.getMessage().contains("NO-SUCH-DIGEST"));
  }
}
