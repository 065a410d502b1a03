# Sourced by scripts/bench-relay and scripts/bench-serve: the paired ratio of two setups.
#
# paired_ratio DIR ROUNDS NAME BASE KEY: KEY of NAME over KEY of BASE, round by round (files
# DIR/NAME.R and DIR/BASE.R, key/value lines from bench/relay_client; each round runs every
# setup once, back to back), printed as "median q1-q3" of those ratios (the median of an even
# count is the mean of the two middle ones), or "-" when no round has both. A round where
# either setup has no value for KEY (no file, or no KEY in it: it failed before measuring KEY)
# is left out for KEY, never paired with another round's value.
#
# Why paired: a process lands on the CPUs differently each time it starts, which moves its
# round trips by a factor of two or more either way on a small machine. The median over many
# rounds damps those per-start swings; pairing each round with the base setup of the same
# round cancels what the rounds share (the machine's load drifting during the run).
paired_ratio() {
  local dir=$1 rounds=$2 name=$3 base=$4 key=$5 r a b
  for r in $(seq 1 "$rounds"); do
    a=$(paired_value "$dir/$name.$r" "$key")
    b=$(paired_value "$dir/$base.$r" "$key")
    if [ -n "$a" ] && [ -n "$b" ]; then echo "$a $b"; fi
  done | awk '
    $2 > 0 { x[n++] = $1 / $2 }
    END {
      if (n == 0) { print "-"; exit }
      for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (x[j] < x[i]) { t = x[i]; x[i] = x[j]; x[j] = t }
      m = (n % 2) ? x[int(n / 2)] : (x[n / 2 - 1] + x[n / 2]) / 2
      printf "%.2f %.2f-%.2f\n", m, x[int(n / 4)], x[int(3 * n / 4)]
    }'
}

# paired_value FILE KEY: KEY's value in FILE, or nothing (no file, no such line, no value).
paired_value() {
  [ -f "$1" ] || return 0
  awk -v k="$2" '$1 == k && $2 != "" { print $2 + 0; exit }' "$1"
}

# paired_median "median q1-q3": the median alone ("-" stays "-").
paired_median() { echo "${1%% *}"; }
