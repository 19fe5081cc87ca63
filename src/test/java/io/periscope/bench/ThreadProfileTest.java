package io.periscope.bench;

import static org.junit.Assert.assertEquals;

import java.util.List;
import org.junit.Test;

public class ThreadProfileTest {
  @Test
  public void aSampleCountsForTheFirstGroupAnyOfItsFramesBelongsTo() {
    List<String> write =
        List.of(
            "com.fasterxml.jackson.databind.ObjectMapper.writeValueAsBytes",
            "org.apache.pekko.persistence.jdbc.PekkoSerialization$.serialize",
            "org.apache.pekko.persistence.jdbc.journal.dao.DefaultJournalDao.asyncWriteMessages");
    assertEquals("journal: events serialized (Jackson)", ThreadProfile.group(write));
    assertEquals(
        "the rest", ThreadProfile.group(List.of("java.util.concurrent.ForkJoinPool.scan")));
  }
}
