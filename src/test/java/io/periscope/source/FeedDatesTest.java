package io.periscope.source;

import static org.junit.Assert.assertEquals;

import java.time.Instant;
import java.util.Optional;
import org.junit.Test;

public class FeedDatesTest {
  private static void reads(String text, String instant) {
    assertEquals(text, Optional.of(Instant.parse(instant)), FeedDates.parse(text));
  }

  @Test
  public void rfc822AndItsVariants() {
    reads("Tue, 02 Jan 2024 10:00:00 GMT", "2024-01-02T10:00:00Z");
    reads("Tue, 2 Jan 2024 10:00:00 +0200", "2024-01-02T08:00:00Z");
    reads("02 Jan 24 10:00 EST", "2024-01-02T15:00:00Z");
    reads("Sun, 20 Apr 2014 8:19 pm CEST", "2014-04-20T18:19:00Z");
    reads("Thursday, 05 June 2008 12:00:00 -07:00", "2008-06-05T19:00:00Z");
    reads("Mon, 5 Mar 2012 09:15:00", "2012-03-05T09:15:00Z");
    reads("Wed, 17 Jul 2019 12:00:00 UT", "2019-07-17T12:00:00Z");
  }

  @Test
  public void w3cDatesKeepTheirSubSecondPartsAndZones() {
    reads("2003-12-13T18:30:02.123456Z", "2003-12-13T18:30:02.123456Z");
    reads("2003-12-13T18:30:02.999999999-01:00", "2003-12-13T19:30:02.999999999Z");
    reads("2003-12-13T18:30:02+0100", "2003-12-13T17:30:02Z");
    reads("2003-12-13T18:30Z", "2003-12-13T18:30:00Z");
    reads("2003-12-13", "2003-12-13T00:00:00Z");
    reads("2003-12", "2003-12-01T00:00:00Z");
  }

  @Test
  public void commonNonStandardForms() {
    reads("2006-01-11 16:43:22 -0800", "2006-01-12T00:43:22Z");
    reads("2020/1/10 14:33:00", "2020-01-10T14:33:00Z");
    reads("Apr 20, 2014 8:19 PM", "2014-04-20T20:19:00Z");
    reads("20140420T081900Z", "2014-04-20T08:19:00Z");
  }

  @Test
  public void whatIsNoDateIsEmpty() {
    assertEquals(Optional.empty(), FeedDates.parse("yesterday"));
    assertEquals(Optional.empty(), FeedDates.parse("2003-02-31"));
    assertEquals(Optional.empty(), FeedDates.parse(""));
    assertEquals(Optional.empty(), FeedDates.parse(null));
  }
}
