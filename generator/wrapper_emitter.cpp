// Emits one PMPI wrapper per function: the encoding statements of
// encoding_writer.h around the PMPI call.
#include "emitters.h"
#include "encoding_writer.h"
#include "pilgrim/match_functions.h"

namespace pilgrim::gen {
namespace {

void write_wrapper(const JoinedFunction &f, bool site_entry, std::ostream &out) {
  const HeaderFunction &h = *f.header;
  std::string decl, args, recorded_args;
  for (size_t i = 0; i < h.params.size(); ++i) {
    const std::string &n = f.params[i].sidecar->name;
    decl += (i ? ", " : "") + h.params[i].declare(n);
    args += (i ? ", " : "") + n;
    // A callback whose invocations the runtime records goes to MPI wrapped
    // (runtime/callback_records.h: record_<its C type>).
    recorded_args +=
        (i ? ", " : "") + (f.params[i].sidecar->record
                               ? "::pilgrim::rt::record_" + h.params[i].base_name + "(" + n + ")"
                               : n);
  }
  if (h.variadic)
    decl += ", ...";
  std::string call = "P" + h.name + "(" + args + ")";
  std::string recorded_call = "P" + h.name + "(" + recorded_args + ")";
  // A matching function, and those replay keeps its books in
  // (pilgrim/match_functions.h), go to order replay while a run replays a
  // trace's order (runtime/replay/replay_calls.h).
  if (is_replay_function(h.name))
    recorded_call = "(::pilgrim::rt::replaying() ? ::pilgrim::rt::replay_" + h.name + "(" + args +
                    ") : " + recorded_call + ")";
  // MPI_Pcontrol is no MPI record: the runtime records a marker and turns
  // tracing off or on (runtime/regions.h, docs/FORMAT.md §8.7).
  if (h.name == "MPI_Pcontrol" && !h.params.empty()) {
    out << "// " << h.name << " (id " << f.id() << "): a region marker, runtime/regions.h\n"
        << "extern \"C\" PILGRIM_EXPORT " << h.return_type << " " << h.name << "(" << decl
        << ") {\n"
        << "  ::pilgrim::rt::pcontrol(" << f.params[0].sidecar->name << ");\n"
        << "  return " << call << ";\n"
        << "}\n\n";
    return;
  }
  // With a Fortran entry point that converts its arguments, the body takes
  // the call site as an argument, inlined twice: into the C function, with
  // its own return address, and into pilgrim_site_<name>, which the entry
  // point calls directly with its return address (fortran_emitter.cpp), so
  // that a Fortran call pays neither the PLT nor a site kept in the
  // thread's state. Otherwise the body is the C function's.
  const std::string site = site_entry ? "site_" : "__builtin_return_address(0)";
  if (site_entry)
    out << "// " << h.name << " (id " << f.id() << "): the body, with the call site\n"
        << "static PILGRIM_HOT " << h.return_type << " pilgrim_body_" << h.name
        << "(const void *site_" << (decl.empty() ? "" : ", ") << decl << ") {\n";
  else
    out << "// " << h.name << " (id " << f.id() << ")\n"
        << "extern \"C\" PILGRIM_EXPORT " << h.return_type << " " << h.name << "(" << decl
        << ") {\n";
  out << "  ::pilgrim::rt::Call c_(" << f.id() << ", " << site << ");\n"
      << "  if (!c_.active())\n"
      << "    return " << call << ";\n";
  const auto ways_in = [&] {
    if (!site_entry)
      return;
    const std::string sep = args.empty() ? "" : ", ";
    out << "extern \"C\" PILGRIM_EXPORT " << h.return_type << " " << h.name << "(" << decl
        << ") {\n"
        << "  return pilgrim_body_" << h.name << "(__builtin_return_address(0)" << sep << args
        << ");\n"
        << "}\n"
        << "extern \"C\" __attribute__((visibility(\"hidden\"))) " << h.return_type
        << " pilgrim_site_" << h.name << "(const void *site_" << sep << decl << ") {\n"
        << "  return pilgrim_body_" << h.name << "(site_" << sep << args << ");\n"
        << "}\n\n";
  };
  EncodingWriter enc(f, out);
  enc.prologue();
  // MPI_Finalize writes the trace before PMPI_Finalize; MPI_Init and
  // MPI_Init_thread start recording after PMPI_Init (runtime/call.h). Every
  // other wrapper takes the inline start and stop.
  const bool finalizes = h.name == "MPI_Finalize";
  const bool inits = h.name == "MPI_Init" || h.name == "MPI_Init_thread";
  if (finalizes) {
    out << "  c_.start_finalize();\n"
        << "  return " << call << ";\n"
        << "}\n\n";
    ways_in();
    return;
  }
  out << "  c_.start();\n"
      << "  " << h.return_type << " rc_ = " << recorded_call << ";\n"
      << (inits ? "  c_.stop_init();\n" : "  c_.stop();\n");
  enc.epilogue();
  out << "  c_.finish(::pilgrim::rt::as_int64(rc_));\n";
  // A datatype whose layout the trace states, right after the call
  // (runtime/facts/datatype_layouts.h).
  for (size_t i = 0; i < h.params.size(); ++i)
    if (f.params[i].sidecar->layout)
      out << "  if (rc_ == MPI_SUCCESS)\n"
          << "    ::pilgrim::rt::record_datatype_layout("
          << (h.params[i].pointer_depth > 0 ? "*" : "") << f.params[i].sidecar->name << ");\n";
  out << "  return rc_;\n"
      << "}\n\n";
  ways_in();
}

} // namespace

void emit_wrappers(const JoinResult &joined, const std::set<std::string> &site_entries, size_t begin,
                   size_t end, std::ostream &out) {
  out << "// Generated by pilgrim-gen-wrappers. Do not edit.\n"
         "// One PMPI wrapper per MPI function: the prologue encodes the in-values, the\n"
         "// PMPI call runs with the application's arguments (a callback whose invocations\n"
         "// are recorded goes wrapped; a matching function goes to order replay while\n"
         "// replaying), the epilogue encodes the out-values and the return code.\n"
         "#include <mpi.h>\n"
         "#include \"call_inline.h\"\n"
         "#include \"callback_records.h\"\n"
         "#include \"datatype_layouts.h\"\n"
         "#include \"regions.h\"\n"
         "#include \"replay_calls.h\"\n"
         "#include \"replay_flag.h\"\n"
         "#include \"window_registry.h\"\n\n"
         "// Deprecated MPI functions are wrapped like any other.\n"
         "#pragma GCC diagnostic ignored \"-Wdeprecated-declarations\"\n\n";
  for (size_t i = begin; i < end && i < joined.wrapped.size(); ++i)
    write_wrapper(joined.wrapped[i], site_entries.count(joined.wrapped[i].name()) > 0, out);
}

} // namespace pilgrim::gen
