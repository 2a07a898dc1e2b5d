//! The report's charts, drawn with plotters as SVG (text as SVG `<text>`, so no font engine or
//! system fonts are needed).

use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::ChartError;

const SIZE: (u32, u32) = (720, 360);
const BLUE: RGBColor = RGBColor(0x3b, 0x6e, 0xa8);
const GREY: RGBColor = RGBColor(0x88, 0x88, 0x88);

type Result<T> = std::result::Result<T, ChartError>;

fn err(e: impl std::fmt::Display) -> ChartError {
    ChartError(e.to_string())
}

/// One value with its 95% interval.
#[derive(Clone, Debug, PartialEq)]
pub struct Interval {
    pub label: String,
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
}

/// How an interval chart's axis reads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scale {
    /// Values are proportions, drawn and labelled in percent as the tables show them.
    pub percent: bool,
    /// The axis spans at least this much (in the values' own unit), so that a tiny effect is not
    /// drawn across the whole width.
    pub min_span: f64,
}

impl Scale {
    /// Win rates and shares: percent, at least 10 percentage points wide.
    pub const SHARE: Self = Self {
        percent: true,
        min_span: 0.10,
    };
    /// Elo: at least 50 Elo wide.
    pub const ELO: Self = Self {
        percent: false,
        min_span: 50.0,
    };
    /// Points of margin: at least 2 points wide.
    pub const POINTS: Self = Self {
        percent: false,
        min_span: 2.0,
    };
}

/// Plotters draws text at about 0.8 of the size asked: 16 gives labels of about 13 px.
const LABEL: u32 = 16;

/// A tick value as the tables write it: `12%`, `-3.5`, `450`.
fn tick(value: f64, step: f64, percent: bool) -> String {
    let digits = if step >= 1.0 {
        0
    } else {
        (-step.log10()).ceil() as usize
    };
    if percent {
        format!("{value:.digits$}%")
    } else {
        format!("{value:.digits$}")
    }
}

/// An interval chart's axis, in the values' drawn unit (percent for shares): every interval and
/// the reference, widened to the scale's least span around their middle, with a margin.
fn axis_range(items: &[Interval], reference: Option<f64>, scale: Scale) -> (f64, f64) {
    let k = if scale.percent { 100.0 } else { 1.0 };
    let lows = items.iter().map(|i| i.lo).chain(reference);
    let highs = items.iter().map(|i| i.hi).chain(reference);
    let mut lo = lows.fold(f64::INFINITY, f64::min) * k;
    let mut hi = highs.fold(f64::NEG_INFINITY, f64::max) * k;
    if !lo.is_finite() || !hi.is_finite() {
        (lo, hi) = (0.0, 1.0);
    }
    let span = scale.min_span * k;
    if hi - lo < span {
        let mid = (hi + lo) / 2.0;
        (lo, hi) = (mid - span / 2.0, mid + span / 2.0);
    }
    let pad = (hi - lo) * 0.08;
    (lo - pad, hi + pad)
}

/// Each item's row, the first on top: its interval as a bar with end ticks, its value as a dot
/// (`k` turns values into the axis's unit).
fn draw_interval_rows<DB: DrawingBackend>(
    chart: &mut ChartContext<'_, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    items: &[Interval],
    k: f64,
) -> Result<()> {
    let n = items.len().max(1);
    for (i, item) in items.iter().enumerate() {
        let y = (n - 1 - i) as f64;
        let (l, h, v) = (item.lo * k, item.hi * k, item.value * k);
        chart
            .draw_series([
                PathElement::new(vec![(l, y), (h, y)], BLUE.stroke_width(2)),
                PathElement::new(vec![(l, y - 0.15), (l, y + 0.15)], BLUE.stroke_width(2)),
                PathElement::new(vec![(h, y - 0.15), (h, y + 0.15)], BLUE.stroke_width(2)),
            ])
            .map_err(err)?;
        chart
            .draw_series([Circle::new((v, y), 5, BLUE.filled())])
            .map_err(err)?;
    }
    Ok(())
}

/// One row per label: a point with its interval bar, and a dashed reference line (the fair
/// share, an even score). Rows rather than columns, so that long labels never overlap.
pub fn intervals(
    title: &str,
    x_label: &str,
    items: &[Interval],
    reference: Option<f64>,
    scale: Scale,
) -> Result<String> {
    let k = if scale.percent { 100.0 } else { 1.0 };
    let (lo, hi) = axis_range(items, reference, scale);
    let step = (hi - lo) / 8.0;
    let n = items.len().max(1);
    let longest = items
        .iter()
        .map(|i| i.label.chars().count())
        .max()
        .unwrap_or(4);
    let label_width = (longest as u32 * 9 + 20).clamp(80, 360);
    let height = 110 + 40 * n as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (SIZE.0, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 20))
            .margin(14)
            .x_label_area_size(50)
            .y_label_area_size(label_width)
            .build_cartesian_2d(lo..hi, -0.5f64..n as f64 - 0.5)
            .map_err(err)?;
        let labels: Vec<String> = items.iter().map(|i| i.label.clone()).collect();
        chart
            .configure_mesh()
            .disable_y_mesh()
            .label_style(("sans-serif", LABEL))
            .axis_desc_style(("sans-serif", LABEL))
            .x_desc(x_label)
            .x_labels(8)
            .max_light_lines(1)
            .x_label_formatter(&|x| tick(*x, step, scale.percent))
            .y_labels(n)
            .y_label_formatter(&|y| {
                let i = (n as f64 - 1.0 - y).round();
                if (n as f64 - 1.0 - y - i).abs() < 1e-6 && i >= 0.0 {
                    labels.get(i as usize).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .draw()
            .map_err(err)?;
        if let Some(r) = reference {
            chart
                .draw_series(DashedLineSeries::new(
                    vec![(r * k, -0.5), (r * k, n as f64 - 0.5)],
                    6,
                    4,
                    GREY.stroke_width(1),
                ))
                .map_err(err)?;
        }
        draw_interval_rows(&mut chart, items, k)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// A histogram from equal bins starting at `start`, `width` wide; `y_label` names what a bar
/// counts (games, or Thud's rounds).
pub fn histogram(
    title: &str,
    x_label: &str,
    y_label: &str,
    start: f64,
    width: f64,
    counts: &[u64],
) -> Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let end = start + width * counts.len().max(1) as f64;
        let most = counts.iter().copied().max().unwrap_or(1).max(1);
        let top = most as f64 * 1.05;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(start..end, 0f64..top)
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .label_style(("sans-serif", LABEL))
            .axis_desc_style(("sans-serif", LABEL))
            .x_desc(x_label)
            .y_desc(y_label)
            .max_light_lines(1)
            // No more ticks than whole counts: a grid line at every unlabelled fraction of a
            // game is noise.
            .y_labels((most as usize + 1).min(10))
            .x_label_formatter(&|x| format!("{x:.0}"))
            // Counts are whole: a tick between two whole numbers stays unlabelled.
            .y_label_formatter(&|y| {
                if (y - y.round()).abs() < 1e-9 {
                    format!("{y:.0}")
                } else {
                    String::new()
                }
            })
            .draw()
            .map_err(err)?;
        chart
            .draw_series(counts.iter().enumerate().map(|(i, &c)| {
                let x0 = start + width * i as f64;
                Rectangle::new([(x0, 0.0), (x0 + width, c as f64)], BLUE.mix(0.7).filled())
            }))
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// Horizontal bars: one group per series (e.g. a pairing), one bar per category (e.g. a
/// termination reason), lengths as shares of the series' games.
pub fn grouped_shares(
    title: &str,
    categories: &[String],
    series: &[(String, Vec<f64>)],
) -> Result<String> {
    let mut svg = String::new();
    {
        let rows = (categories.len() * series.len()).max(1);
        let height = (110 + 26 * rows as u32).max(220);
        let root = SVGBackend::with_string(&mut svg, (SIZE.0, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let labels: Vec<String> = series
            .iter()
            .flat_map(|(name, _)| categories.iter().map(move |c| format!("{name}: {c}")))
            .collect();
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            // Room on the right for the half of the "100%" tick label past the axis's end.
            .margin_right(36)
            .x_label_area_size(50)
            .y_label_area_size(300)
            .build_cartesian_2d(0f64..1.0, -0.5f64..rows as f64 - 0.5)
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .label_style(("sans-serif", LABEL))
            .axis_desc_style(("sans-serif", LABEL))
            .y_labels(rows)
            .y_label_formatter(&|y| {
                let i = y.round();
                if (y - i).abs() < 1e-6 && i >= 0.0 {
                    labels.get(i as usize).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .x_desc("share of games")
            .x_labels(6)
            .max_light_lines(1)
            .x_label_formatter(&|x| format!("{:.0}%", 100.0 * x))
            .draw()
            .map_err(err)?;
        let values: Vec<f64> = series.iter().flat_map(|(_, v)| v.iter().copied()).collect();
        chart
            .draw_series(values.iter().enumerate().map(|(i, &v)| {
                let y = i as f64;
                Rectangle::new(
                    [(0.0, y - 0.35), (v, y + 0.35)],
                    Palette99::pick(i % categories.len().max(1)).filled(),
                )
            }))
            .map_err(err)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// A square matrix of scores (row against column) as a heatmap with the score in each cell.
pub fn heatmap(title: &str, labels: &[String], matrix: &[Vec<Option<f64>>]) -> Result<String> {
    let mut svg = String::new();
    {
        let n = labels.len().max(1);
        let root = SVGBackend::with_string(&mut svg, (SIZE.0, SIZE.0.min(140 + 70 * n as u32)))
            .into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            // Tall enough that the axis name sits below the tick labels, not on them.
            .x_label_area_size(64)
            .y_label_area_size(120)
            .build_cartesian_2d(-0.5f64..n as f64 - 0.5, -0.5f64..n as f64 - 0.5)
            .map_err(err)?;
        let name = |v: &f64| {
            let i = v.round();
            if (v - i).abs() < 1e-6 && i >= 0.0 {
                labels.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .disable_mesh()
            .label_style(("sans-serif", LABEL))
            .axis_desc_style(("sans-serif", LABEL))
            .x_labels(n)
            .y_labels(n)
            .x_label_formatter(&name)
            .y_label_formatter(&|y| name(&(n as f64 - 1.0 - y)))
            .x_desc("opponent")
            .draw()
            .map_err(err)?;
        for (i, row) in matrix.iter().enumerate() {
            for (j, cell) in row.iter().enumerate() {
                let (x, y) = (j as f64, (n - 1 - i) as f64);
                let (fill, text) = match cell {
                    Some(s) => {
                        // Red below an even score, blue above.
                        let t = (s - 0.5).abs().min(0.5) * 2.0;
                        let c = if *s >= 0.5 {
                            RGBColor(0x3b, 0x6e, 0xa8)
                        } else {
                            RGBColor(0xc0, 0x39, 0x2b)
                        };
                        (c.mix(0.15 + 0.7 * t), crate::percent(*s, 1))
                    }
                    None => (GREY.mix(0.15), "-".to_owned()),
                };
                chart
                    .draw_series([Rectangle::new(
                        [(x - 0.48, y - 0.48), (x + 0.48, y + 0.48)],
                        fill.filled(),
                    )])
                    .map_err(err)?;
                chart
                    .draw_series([Text::new(
                        text,
                        (x, y),
                        ("sans-serif", 15)
                            .into_font()
                            .color(&BLACK)
                            .pos(Pos::new(HPos::Center, VPos::Center)),
                    )])
                    .map_err(err)?;
            }
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}
