package io.periscope.devices;

import io.periscope.account.AccountDataEraser;
import io.periscope.entity.Asks;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.Done;

/** A deleted account's browsers stop being pushed to: every device is removed. */
public final class DevicesEraser implements AccountDataEraser {
  private final DevicesEntity.Refs devices;
  private final Asks asks;

  public DevicesEraser(DevicesEntity.Refs devices, Asks asks) {
    this.devices = devices;
    this.asks = asks;
  }

  @Override
  public CompletionStage<Done> erase(
      String accountId, List<String> watchIds, boolean eraseHistory) {
    return asks.<DevicesEntity.Command, DevicesEntity.Devices>ask(
            devices.devices(accountId), DevicesEntity.GetDevices::new)
        .thenCompose(
            found ->
                AccountDataEraser.removeEach(
                    found.devices(),
                    d ->
                        asks.<DevicesEntity.Command, Done>ask(
                            devices.devices(accountId),
                            reply -> new DevicesEntity.Remove(d.id(), reply))));
  }
}
