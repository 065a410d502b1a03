# Sourced by scripts/bench-relay and scripts/bench-serve: the paired ratio of two setups.
#
# paired_ratio DIR ROUNDS NAME BASE KEY: KEY of NAME over KEY of BASE, round by round (files
# DIR/NAME.R and DIR/BASE.R, key/value lines from bench/relay_client; each round runs every
# setup once, back to back), printed as "median q1-q3" of those ratios, or "-". A process
# lands on the CPUs differently each time it starts, which moves its round trips by a factor of
# two or more either way on a small machine; pairing each round with the base setup of the same
# round, and taking the median over many rounds, cancels most of that.
paired_ratio() {
  local dir=$1 rounds=$2 name=$3 base=$4 key=$5 r files=()
  for r in $(seq 1 "$rounds"); do files+=("$dir/$name.$r" "$dir/$base.$r"); done
  awk -v k="$key" -v rounds="$rounds" '
    FNR == 1 { f++ }
    $1 == k && $2 != "" { v[f] = $2 + 0 }
    END {
      for (r = 0; r < rounds; r++) if ((2 * r + 1) in v && (2 * r + 2) in v && v[2 * r + 2] > 0)
        x[n++] = v[2 * r + 1] / v[2 * r + 2]
      if (n == 0) { print "-"; exit }
      for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
      printf "%.2f %.2f-%.2f\n", x[int(n / 2)], x[int(n / 4)], x[int(3 * n / 4)]
    }' "${files[@]}" 2>/dev/null
}
