// libmosquitto (Debian libmosquitto-dev), the MQTT client library the `MQTT` target wraps.
#include <mosquitto.h>
