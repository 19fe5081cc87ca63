package io.periscope.http;

import static io.periscope.testing.InProcessService.json;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.periscope.channels.WebhookSecretEntity;
import io.periscope.devices.DevicesEntity;
import io.periscope.persistence.JournalReads;
import io.periscope.testing.FakePushService;
import io.periscope.testing.InProcessService;
import io.periscope.testing.TestJournals;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/**
 * Deleting an account runs the erasers of the packages that keep its data: its browsers' push
 * subscriptions and its webhook secret are removed, as the journal shows.
 */
public class AccountDataErasureTest {
  private InProcessService service;
  private FakePushService pushService;

  @Before
  public void start() throws Exception {
    service = new InProcessService(TestJournals.h2());
    pushService = new FakePushService();
  }

  @After
  public void stop() throws Exception {
    service.close();
    pushService.close();
  }

  @Test
  public void deletingAnAccountRemovesItsDevicesAndItsWebhookSecret() throws Exception {
    String root = service.signedIn("root", "admin");
    String ivy = service.signedIn("ivy", "user");
    for (String name : new String[] {"phone", "laptop"})
      json(
          service.call("POST", "/devices", ivy, pushService.subscribe(201).registration(name)),
          201);
    int created = service.call("POST", "/channels/webhook-secret", ivy, null).statusCode();
    assertTrue("the secret is made: " + created, created / 100 == 2);

    assertEquals(204, service.call("DELETE", "/admin/users/ivy", root, null).statusCode());

    JournalReads journal = new JournalReads(service.system);
    Set<String> kept =
        journal
            .<Set<String>>foldEvents(
                DevicesEntity.TYPE_KEY.name(),
                "ivy",
                new HashSet<>(),
                (ids, event) -> {
                  if (event instanceof DevicesEntity.DeviceRegistered r) ids.add(r.device().id());
                  if (event instanceof DevicesEntity.DeviceRemoved r) ids.remove(r.deviceId());
                  return ids;
                })
            .toCompletableFuture()
            .get(30, TimeUnit.SECONDS);
    assertEquals("no device is left", Set.of(), kept);
    Object last =
        journal
            .<Object>foldEvents(
                WebhookSecretEntity.TYPE_KEY.name(), "ivy", null, (was, event) -> event)
            .toCompletableFuture()
            .get(30, TimeUnit.SECONDS);
    assertTrue("the secret is removed: " + last, last instanceof WebhookSecretEntity.SecretRemoved);
  }
}
