package io.periscope.runtime;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.periscope.testing.InProcessService;
import io.periscope.testing.LiveEntities;
import io.periscope.testing.TestJournals;
import io.periscope.testing.TestWatches;
import io.periscope.watch.WatchEntity;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/**
 * A created watch leaves memory at once and comes back from the journal when it is next addressed,
 * while a watch that is read stays until the idle timeout: the whole service on an H2 file journal,
 * with the shard region asked which watches are live.
 */
public class CreatedWatchPassivationTest {
  private Path dataDir;
  private InProcessService service;
  private String token;

  @Before
  public void start() throws Exception {
    dataDir = Files.createTempDirectory("periscope-passivation");
    service = new InProcessService(TestJournals.embedded(dataDir).resolve());
    token = service.signedIn("pia", "user");
  }

  @After
  public void stop() throws Exception {
    if (service != null) service.close();
  }

  @Test
  public void aCreatedWatchPassivatesAndIsStartedAgainByItsNextMessage() throws Exception {
    String body =
        TestWatches.body("fresh")
            .name("Fresh")
            .condition("anything")
            .search("pekko")
            .schedule("0 9 * * 1")
            .threshold(0.7)
            .json();
    InProcessService.json(service.call("POST", "/watches", token, body), 201);
    awaitPassivated("pia:fresh");

    var read = InProcessService.json(service.call("GET", "/watches/fresh", token, null), 200);
    assertEquals("Fresh", read.get("name").asText());
    assertEquals("0 9 * * 1", read.get("schedule").asText());
    // Reading is no reason to leave: the watch now stays until the idle timeout (ten minutes by
    // default).
    Thread.sleep(1000);
    assertTrue(liveWatches().contains("pia:fresh"));

    InProcessService.json(service.call("POST", "/watches", token, body), 409);
    assertEquals(
        1,
        InProcessService.json(service.call("GET", "/watches", token, null), 200)
            .get("watches")
            .size());
  }

  private void awaitPassivated(String entityId) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (liveWatches().contains(entityId)) {
      if (System.nanoTime() > deadline)
        throw new AssertionError(entityId + " still live after 10 s");
      Thread.sleep(50);
    }
  }

  private Set<String> liveWatches() throws Exception {
    return LiveEntities.on(service.system, WatchEntity.TYPE_KEY);
  }
}
