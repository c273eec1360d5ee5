// The OBJ stitch (see obj_stitch.h): chunking, the parallel parse, and joining the chunks in file
// order. Everything per chunk runs on every core (parallel.h); what must follow the file's order
// (counts before each chunk, material libraries, the first refusal) is a short sequential pass
// over chunks, statements or faces.
#include "engine/formats/obj/obj_stitch.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <type_traits>

#include "engine/base/big_array.h"
#include "engine/base/parallel.h"
#include "engine/formats/obj/obj_chunk_reserve.h"
#include "engine/formats/obj/obj_triangulate.h"
#include "engine/load/load_model.h"

namespace facet {

namespace {

// Chunk sizes: big enough that a chunk's fixed costs vanish, small enough that every core gets
// several (lines vary in cost) and that chunk-local counts stay far below 2^32.
constexpr size_t kMinChunkBytes = size_t(1) << 20;
constexpr size_t kMaxChunkBytes = size_t(32) << 20;
constexpr unsigned kChunksPerWorker = 4;

// The first line end at or after `from` that may end a chunk: a '\n' not continued by a '\'.
size_t next_cut(const char* text, size_t size, size_t from) {
  while (from < size) {
    const char* q = (const char*)std::memchr(text + from, '\n', size - from);
    if (!q) break;
    const char* before = q > text ? q - 1 : nullptr;
    if (before && *before == '\r' && before > text) --before;
    if (!before || *before != '\\') return (size_t)(q - text) + 1;
    from = (size_t)(q - text) + 1;
  }
  return size;
}

// Runs fn(chunk index, worker) over all chunks on every core (worker 0 is the calling thread);
// an exception in any is rethrown here.
template <class Fn>
void for_each_chunk(size_t count, Fn&& fn) {
  std::vector<std::exception_ptr> failures(count);
  parallel_for(count, 1, [&](uint64_t b, uint64_t e, unsigned worker) {
    for (uint64_t i = b; i < e; ++i) {
      try {
        if constexpr (std::is_invocable_v<Fn, size_t, unsigned>)
          fn((size_t)i, worker);
        else
          fn((size_t)i);
      } catch (...) {
        failures[i] = std::current_exception();
      }
    }
  });
  for (const std::exception_ptr& f : failures)
    if (f) std::rethrow_exception(f);
}

[[noreturn]] void refuse_at(const std::string& path, uint64_t line, const std::string& what) {
  throw LoadError(path + ":" + std::to_string(line) + ": " + what);
}

// One corner array's parts from 1-based (0 = absent) to 0-based (-1 = absent).
void to_zero_based(std::vector<int32_t>& parts) {
  for (int32_t& x : parts) x = x > 0 ? x - 1 : -1;
}

// Relative indices of one chunk to whole-file ones, absolute ones to 0-based. Returns the
// chunk-local line of the first relative v or vt index before the file's first element (0 when
// none); *bad_normal gets the first such vn line.
uint32_t resolve_chunk(ObjChunk& chunk, const ObjCounts& before, uint32_t* bad_normal) {
  // The relative parts first, written 1-based (a vn that points at nothing as 0, absent) for the
  // flat passes below. A whole-file index of 2^31 - 1 or more would not survive that, but no
  // index past 2^31 - 1 survives the mesh's 32-bit corners either.
  const int64_t base[3] = {(int64_t)before.v, (int64_t)before.vt, (int64_t)before.vn};
  std::vector<int32_t>* const arrays[3] = {&chunk.corner_v, &chunk.corner_vt, &chunk.corner_vn};
  for (const ObjRelative& r : chunk.relative) {
    for (int kind = 0; kind < 3; ++kind) {
      if (!(r.bits & (1u << kind))) continue;
      int32_t& part = (*arrays[kind])[r.corner];
      const int64_t global = base[kind] + part;
      if (global >= 0) {
        part = (int32_t)(global + 1);
      } else if (kind < 2) {
        return r.line;
      } else {
        part = 0;
        if (!*bad_normal) *bad_normal = r.line;
      }
    }
  }
  std::vector<ObjRelative>().swap(chunk.relative);
  to_zero_based(chunk.corner_v);
  to_zero_based(chunk.corner_vt);
  to_zero_based(chunk.corner_vn);
  return 0;
}

// The first refusal in file order: a chunk's parse error, or a relative index the chunk could
// not check alone (the chunk is parsed again, knowing the counts before it, for its message).
void refuse_first_error(const std::string& path, const std::vector<ObjChunk>& chunks,
                        const std::vector<ObjCounts>& before, const std::vector<uint64_t>& lines,
                        const std::vector<uint32_t>& bad_relative) {
  for (size_t i = 0; i < chunks.size(); ++i) {
    if (bad_relative[i]) {
      ObjChunk again;
      again.begin = chunks[i].begin;
      again.end = chunks[i].end;
      again.first = chunks[i].first;
      parse_obj_chunk(again, &before[i]);
      if (again.error.line) refuse_at(path, lines[i] + again.error.line, again.error.what);
      refuse_at(path, lines[i] + bad_relative[i], "relative index points before the first one");
    }
    if (chunks[i].error.line) refuse_at(path, lines[i] + chunks[i].error.line, chunks[i].error.what);
  }
}

// Absolute indices past the file's last element: v and vt refuse the file, vn only marks the
// file's normals unusable. Each is reported where its largest index was first seen.
void check_absolute_indices(const std::string& path, ObjModel& m, const std::vector<uint64_t>& lines) {
  static const char* kName[2] = {"vertex", "texture coordinate"};
  static const char* kPlural[2] = {"vertices", "texture coordinates"};
  const uint64_t have[3] = {m.counts.v, m.counts.vt, m.counts.vn};
  for (int kind = 0; kind < 3; ++kind) {
    int64_t largest = 0;
    uint64_t line = 0;
    for (size_t i = 0; i < m.chunks.size(); ++i) {
      const ObjMaxIndex& x = m.chunks[i].max_index[kind];
      if (x.value > largest) largest = x.value, line = lines[i] + x.line;
    }
    if ((uint64_t)largest <= have[kind]) continue;
    if (kind == 2) {
      if (!m.bad_normal_line) m.bad_normal_line = line;
      continue;
    }
    refuse_at(path, line,
              std::string(kName[kind]) + " index " + std::to_string(largest) + " out of range (the file has " +
                  std::to_string(have[kind]) + " " + kPlural[kind] + ")");
  }
}

// One array of the whole file from the chunks' parts, which are freed as they are copied.
template <class T>
std::vector<T> concatenate(std::vector<ObjChunk>& chunks, std::vector<T> ObjChunk::*part) {
  std::vector<size_t> offset(chunks.size() + 1, 0);
  for (size_t i = 0; i < chunks.size(); ++i) offset[i + 1] = offset[i] + (chunks[i].*part).size();
  std::vector<T> out;
  resize_on_every_core(out, offset.back());
  for_each_chunk(chunks.size(), [&](size_t i) {
    std::copy((chunks[i].*part).begin(), (chunks[i].*part).end(), out.begin() + (long)offset[i]);
    std::vector<T>().swap(chunks[i].*part);
  });
  return out;
}

}  // namespace

std::vector<ObjChunk> parse_obj_text(const char* text, size_t size, const std::function<void(float done)>& progress) {
  size_t target = size / ((size_t)worker_count() * kChunksPerWorker);
  target = std::min(std::max(target, kMinChunkBytes), kMaxChunkBytes);
  std::vector<ObjChunk> chunks;
  for (size_t pos = 0; pos < size;) {
    size_t cut = next_cut(text, size, pos + target);
    ObjChunk chunk;
    chunk.begin = text + pos;
    chunk.end = text + cut;
    chunk.first = pos == 0;
    chunks.push_back(std::move(chunk));
    pos = cut;
  }
  std::atomic<size_t> parsed{0};  // bytes
  for_each_chunk(chunks.size(), [&](size_t i, unsigned worker) {
    reserve_obj_chunk(chunks[i]);
    parse_obj_chunk(chunks[i]);
    size_t done = parsed += (size_t)(chunks[i].end - chunks[i].begin);
    if (worker == 0 && progress) progress((float)((double)done / (double)size));  // caller's thread
  });
  return chunks;
}

ObjModel stitch_obj_chunks(const std::string& path, std::vector<ObjChunk> chunks) {
  const size_t n = chunks.size();
  std::vector<ObjCounts> before(n);
  std::vector<uint64_t> lines(n, 0);  // lines before each chunk
  ObjModel m;
  for (size_t i = 0; i < n; ++i) {
    before[i] = m.counts;
    lines[i] = i ? lines[i - 1] + chunks[i - 1].lines : 0;
    m.counts.v += chunks[i].vertex_count();
    m.counts.vt += chunks[i].texcoord_count();
    m.counts.vn += chunks[i].normal_count();
  }
  std::vector<uint32_t> bad_relative(n, 0), bad_normal(n, 0);
  for_each_chunk(n, [&](size_t i) { bad_relative[i] = resolve_chunk(chunks[i], before[i], &bad_normal[i]); });
  refuse_first_error(path, chunks, before, lines, bad_relative);
  for (size_t i = 0; i < n && !m.bad_normal_line; ++i)
    if (bad_normal[i]) m.bad_normal_line = lines[i] + bad_normal[i];
  m.chunks = std::move(chunks);
  check_absolute_indices(path, m, lines);

  std::vector<uint32_t> smoothing_at(n, 0);  // in force at each chunk's start: none until an `s`
  for (size_t i = 1; i < n; ++i)
    smoothing_at[i] =
        m.chunks[i - 1].last_smoothing != kInheritSmoothing ? m.chunks[i - 1].last_smoothing : smoothing_at[i - 1];
  for_each_chunk(n, [&](size_t i) {
    for (ObjFace& f : m.chunks[i].faces)
      if (f.smoothing == kInheritSmoothing) f.smoothing = smoothing_at[i];
  });
  for (size_t i = 0; i < n; ++i) {
    ObjChunk& c = m.chunks[i];
    for (uint32_t& u : c.unusable) m.unusable.push_back((uint32_t)(before[i].v + u));
    m.faces += c.face_statements;
    if (c.short_faces && !m.short_faces) m.short_face_line = lines[i] + c.short_face_line;
    m.short_faces += c.short_faces;
    m.texcoord_not_numbers += c.texcoord_not_numbers;
    m.normal_not_numbers += c.normal_not_numbers;
    if (c.not_number_line && !m.not_number_line) {
      m.not_number_line = lines[i] + c.not_number_line;
      m.not_number_word = std::move(c.not_number_word);
    }
    m.line_statements += c.line_statements;
    m.point_statements += c.point_statements;
    m.colored_vertices += c.colors.size() / 3;
    m.has_smoothing |= c.has_smoothing;
  }
  m.positions = concatenate(m.chunks, &ObjChunk::positions);
  m.texcoords = concatenate(m.chunks, &ObjChunk::texcoords);
  m.normals = concatenate(m.chunks, &ObjChunk::normals);
  if (m.colored_vertices == m.counts.v) m.colors = concatenate(m.chunks, &ObjChunk::colors);
  for (ObjChunk& c : m.chunks) std::vector<float>().swap(c.colors);
  return m;
}

void assign_obj_materials(ObjModel& model, MaterialLibrary& library) {
  // The statements in file order (libraries load, names resolve as they come), then each
  // chunk's faces on every core.
  const size_t n = model.chunks.size();
  std::vector<int32_t> at_start(n, -1);
  std::vector<std::vector<int32_t>> chosen(n);  // per chunk: in force after each statement
  int32_t material = -1;                        // in force: none until a usemtl names a known material
  for (size_t i = 0; i < n; ++i) {
    const ObjChunk& c = model.chunks[i];
    at_start[i] = material;
    chosen[i].assign(c.statements.size(), -1);
    for (size_t s = 0; s < c.statements.size(); ++s) {
      const ObjStatement& st = c.statements[s];
      if (st.is_usemtl)
        material = library.find(st.text);
      else
        library.load(st.text);
      chosen[i][s] = material;
    }
  }
  for_each_chunk(n, [&](size_t i) {
    if (model.chunks[i].statements.empty() && at_start[i] < 0) return;  // every face keeps -1
    for (ObjFace& f : model.chunks[i].faces) f.usemtl = f.usemtl >= 0 ? chosen[i][(size_t)f.usemtl] : at_start[i];
  });
}

void triangulate_obj_faces(ObjModel& model) {
  const float* positions = model.positions.data();
  std::vector<uint8_t> unusable;  // per `v`, when any is
  if (!model.unusable.empty()) unusable.assign(model.counts.v, 0);
  for (uint32_t u : model.unusable) unusable[u] = 1;
  for_each_chunk(model.chunks.size(), [&](size_t i) {
    ObjChunk& c = model.chunks[i];
    c.all_triangles = c.polygon_faces == 0;
    if (c.all_triangles) return;
    std::vector<int32_t> v;
    std::vector<uint32_t> local;
    c.triangles.reserve(3 * (c.face_statements + c.polygon_faces));
    c.triangle_faces.reserve(c.face_statements + c.polygon_faces);
    for (size_t f = 0; f < c.faces.size(); ++f) {
      const ObjFace& face = c.faces[f];
      if (face.triangles) {
        for (uint32_t k = 0; k < face.corner_count; k += 3) {
          for (uint32_t j = 0; j < 3; ++j) c.triangles.push_back((uint32_t)(face.first_corner + k + j));
          c.triangle_faces.push_back((uint32_t)f);
        }
        continue;
      }
      v.resize(face.corner_count);
      for (uint32_t k = 0; k < face.corner_count; ++k) v[k] = c.corner_v[face.first_corner + k];
      local.clear();
      uint32_t bad = face.corner_count;  // the first corner with an unusable position
      for (uint32_t k = 0; k < face.corner_count && !unusable.empty(); ++k)
        if (unusable[(size_t)v[k]]) {
          bad = k;
          break;
        }
      if (bad < face.corner_count) {
        fan_polygon(face.corner_count, bad, local);
      } else {
        const PolygonShape shape = triangulate_polygon(v.data(), face.corner_count, positions, local);
        c.polygons_not_simple += shape == PolygonShape::kNotSimple;
        c.polygons_not_flat += shape == PolygonShape::kNotFlat;
      }
      for (uint32_t corner : local) c.triangles.push_back((uint32_t)(face.first_corner + corner));
      for (size_t t = 0; t < local.size() / 3; ++t) c.triangle_faces.push_back((uint32_t)f);
    }
  });
  for (const ObjChunk& c : model.chunks) {
    model.polygons += c.polygon_faces;
    model.polygons_not_simple += c.polygons_not_simple;
    model.polygons_not_flat += c.polygons_not_flat;
  }
}

}  // namespace facet
