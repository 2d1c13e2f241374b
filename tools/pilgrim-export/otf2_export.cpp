// pilgrim-export --otf2 DIR: the archive written in the order of
// ../shared/exports.md: each rank's events streamed to its event writers,
// one rank at a time, then empty local definitions, then the global
// definitions, which need every location's event count.
#include "otf2_export.h"

#include "otf2_archive.h"
#include "otf2_definitions.h"
#include "otf2_rank_events.h"
#include "otf2_timeline.h"
#include "pilgrim/trace_error.h"

namespace pilgrim::exporter {

bool otf2_available() { return true; }

bool write_otf2(const reader::TraceFile &trace, const ExportOptions &options, std::string &error) {
  try {
    const CommDirectory communicators(trace);
    const std::vector<OTF2_RegionRef> regions = otf2_regions(trace);
    Otf2Run run;
    run.trace = &trace;
    run.communicators = &communicators;
    run.regions = &regions;
    run.time = time_kind(trace);
    ReceiveFloors floors;
    if (run.time == TimeKind::Lossy)
      floors = ReceiveFloors(trace);
    run.floors = &floors;

    Otf2Archive archive(options.otf2_dir);
    OTF2_Archive *a = archive.get();
    otf2_check(OTF2_Archive_SetCreator(a, "pilgrim-export"), "setting the creator");
    otf2_check(OTF2_Archive_SetMachineName(a, "unknown (not recorded)"), "setting the machine");
    otf2_check(OTF2_Archive_OpenEvtFiles(a), "opening the event files");
    Otf2Written written;
    for (uint32_t r = 0; r < trace.nranks(); ++r)
      write_rank_events(a, run, r, written);
    otf2_check(OTF2_Archive_CloseEvtFiles(a), "closing the event files");
    otf2_check(
        OTF2_Archive_SetDescription(a, time_description(trace, run.time, written.clamped).c_str()),
        "setting the description");
    otf2_check(OTF2_Archive_OpenDefFiles(a), "opening the definition files");
    for (const Otf2Location &l : written.locations) {
      OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(a, l.ref);
      if (!d)
        throw Otf2Error("cannot open a local definition writer");
      otf2_check(OTF2_Archive_CloseDefWriter(a, d), "closing a local definition writer");
    }
    otf2_check(OTF2_Archive_CloseDefFiles(a), "closing the definition files");
    write_global_definitions(a, trace, regions, communicators.instances(), written);
    archive.close();
  } catch (const Otf2Error &e) {
    error = "--otf2 " + options.otf2_dir + ": " + e.what();
    return false;
  }
  return true;
}

} // namespace pilgrim::exporter
