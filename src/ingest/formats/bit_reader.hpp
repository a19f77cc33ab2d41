// Reading WebGraph's instantaneous codes from a bit stream held in memory (a mapped .graph file).
//
// Contract: bits are read most significant first within each byte, bytes in file order (the
// big-endian bit streams of WebGraph's Java InputBitStream, i.e. BVGraph version 0). The codes
// and their value ranges, as WebGraph/dsiutils define them:
//   unary   x  = x zeros then a one
//   gamma   x  = unary(l) then the l low bits of x+1, where l = floor(log2(x+1))
//   delta   x  = gamma(l) then the l low bits of x+1
//   zeta_k  x  = unary(h) then x+1 - 2^(hk) in minimal binary over [0, 2^((h+1)k) - 2^(hk)),
//                where h = floor(log2(x+1) / k)
//   nibble  x  = groups of 4 bits, most significant group first: a stop bit (1 = last group)
//                then 3 bits of x
// Reading never touches memory outside the buffer: bits past its end read as zeros, and a read
// that ends past the end throws BitStreamOverrun (the caller turns it into an Error naming the
// file and offset). A code whose value cannot fit in 64 bits throws BitStreamBadCode.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

namespace webrank {

struct BitStreamOverrun {};
struct BitStreamBadCode {
  const char* what;  // static text: "gamma code longer than 64 bits", ...
};

class BitReader {
 public:
  BitReader(const std::uint8_t* data, std::size_t size)
      : data_(data), size_(size), end_bits_(static_cast<std::uint64_t>(size) * 8) {}

  std::uint64_t position() const { return pos_; }  // bits read so far
  std::uint64_t size_bits() const { return end_bits_; }

  bool bit() {
    const bool b = (window() >> 63) != 0;
    advance(1);
    return b;
  }

  // The next n bits as a number, 0 <= n <= 64.
  std::uint64_t bits(unsigned n) {
    if (n == 0) return 0;
    const std::uint64_t v = window() >> (64 - n);
    advance(n);
    return v;
  }

  std::uint64_t unary() {
    std::uint64_t zeros = 0;
    for (;;) {
      const std::uint64_t w = window();
      if (w != 0) {
        const unsigned z = static_cast<unsigned>(std::countl_zero(w));
        advance(z + 1);
        return zeros + z;
      }
      zeros += 64;
      advance(64);  // throws at the end of the buffer, so a run of zeros always terminates
    }
  }

  std::uint64_t gamma() {
    const std::uint64_t l = unary();
    if (l > 63) throw BitStreamBadCode{"gamma code of more than 64 bits"};
    return ((std::uint64_t{1} << l) | bits(static_cast<unsigned>(l))) - 1;
  }

  std::uint64_t delta() {
    const std::uint64_t l = gamma();
    if (l > 63) throw BitStreamBadCode{"delta code of more than 64 bits"};
    return ((std::uint64_t{1} << l) | bits(static_cast<unsigned>(l))) - 1;
  }

  std::uint64_t zeta(unsigned k) {
    const std::uint64_t h = unary();
    if (h * k + k > 64) throw BitStreamBadCode{"zeta code of more than 64 bits"};
    const unsigned hk = static_cast<unsigned>(h * k);
    const std::uint64_t left = std::uint64_t{1} << hk;
    const std::uint64_t m = bits(hk + k - 1);
    if (m < left) return m + left - 1;
    return ((m << 1) | static_cast<std::uint64_t>(bit())) - 1;
  }

  std::uint64_t nibble() {
    std::uint64_t x = 0;
    for (int groups = 0;; ++groups) {
      if (groups == 22) throw BitStreamBadCode{"nibble code of more than 64 bits"};
      const std::uint64_t g = bits(4);
      x = (x << 3) | (g & 7);
      if (g & 8) return x;
    }
  }

 private:
  // The 64 bits starting at pos_ (zeros past the end of the buffer).
  std::uint64_t window() const {
    const std::uint64_t byte = pos_ >> 3;
    const unsigned shift = static_cast<unsigned>(pos_ & 7);
    std::uint64_t w;
    std::uint8_t extra;
    if (byte + 9 <= size_) [[likely]] {
      std::memcpy(&w, data_ + byte, 8);
      if constexpr (std::endian::native == std::endian::little) w = __builtin_bswap64(w);
      extra = data_[byte + 8];
    } else {
      w = 0;
      for (unsigned i = 0; i < 8; ++i) {
        w <<= 8;
        if (byte + i < size_) w |= data_[byte + i];
      }
      extra = byte + 8 < size_ ? data_[byte + 8] : 0;
    }
    if (shift == 0) return w;
    return (w << shift) | (extra >> (8 - shift));
  }

  void advance(std::uint64_t n) {
    pos_ += n;
    if (pos_ > end_bits_) [[unlikely]]
      throw BitStreamOverrun{};
  }

  const std::uint8_t* data_;
  std::size_t size_;
  std::uint64_t end_bits_;
  std::uint64_t pos_ = 0;
};

}  // namespace webrank
