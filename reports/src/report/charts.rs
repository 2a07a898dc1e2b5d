//! The report's charts, drawn with plotters as SVG (text as SVG `<text>`, so no font engine or
//! system fonts are needed).

use plotters::prelude::*;

const SIZE: (u32, u32) = (720, 360);
const BLUE: RGBColor = RGBColor(0x3b, 0x6e, 0xa8);
const GREY: RGBColor = RGBColor(0x88, 0x88, 0x88);

/// A drawing error, as text for the report's error message.
type Result<T> = std::result::Result<T, String>;

fn err(e: impl std::fmt::Display) -> String {
    format!("cannot draw a chart: {e}")
}

/// One value with its 95% interval.
#[derive(Clone, Debug, PartialEq)]
pub struct Interval {
    pub label: String,
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
}

/// Points with interval bars, one per label, and a dashed reference line (e.g. an even score).
pub fn intervals(
    title: &str,
    y_label: &str,
    items: &[Interval],
    reference: Option<f64>,
) -> Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let lo = items
            .iter()
            .map(|i| i.lo)
            .chain(reference)
            .fold(f64::INFINITY, f64::min);
        let hi = items
            .iter()
            .map(|i| i.hi)
            .chain(reference)
            .fold(f64::NEG_INFINITY, f64::max);
        let pad = ((hi - lo) * 0.1).max(1e-3);
        let n = items.len().max(1);
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(-0.5f64..n as f64 - 0.5, (lo - pad)..(hi + pad))
            .map_err(err)?;
        let labels: Vec<String> = items.iter().map(|i| i.label.clone()).collect();
        chart
            .configure_mesh()
            .disable_x_mesh()
            .y_desc(y_label)
            .x_labels(n)
            .x_label_formatter(&|x| {
                let i = x.round();
                if (x - i).abs() < 1e-6 && i >= 0.0 {
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
                    vec![(-0.5, r), (n as f64 - 0.5, r)],
                    6,
                    4,
                    GREY.stroke_width(1),
                ))
                .map_err(err)?;
        }
        for (i, item) in items.iter().enumerate() {
            let x = i as f64;
            chart
                .draw_series([
                    PathElement::new(vec![(x, item.lo), (x, item.hi)], BLUE.stroke_width(2)),
                    PathElement::new(
                        vec![(x - 0.1, item.lo), (x + 0.1, item.lo)],
                        BLUE.stroke_width(2),
                    ),
                    PathElement::new(
                        vec![(x - 0.1, item.hi), (x + 0.1, item.hi)],
                        BLUE.stroke_width(2),
                    ),
                ])
                .map_err(err)?;
            chart
                .draw_series([Circle::new((x, item.value), 5, BLUE.filled())])
                .map_err(err)?;
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// A histogram from equal bins starting at `start`, `width` wide.
pub fn histogram(
    title: &str,
    x_label: &str,
    start: f64,
    width: f64,
    counts: &[u64],
) -> Result<String> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let end = start + width * counts.len().max(1) as f64;
        let top = counts.iter().copied().max().unwrap_or(1).max(1) as f64 * 1.05;
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
            .x_desc(x_label)
            .y_desc("games")
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
        let height = (80 + 22 * rows as u32).max(200);
        let root = SVGBackend::with_string(&mut svg, (SIZE.0, height)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let labels: Vec<String> = series
            .iter()
            .flat_map(|(name, _)| categories.iter().map(move |c| format!("{name}: {c}")))
            .collect();
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(30)
            .y_label_area_size(260)
            .build_cartesian_2d(0f64..1.0, -0.5f64..rows as f64 - 0.5)
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
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
            .x_label_area_size(40)
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
                        (x - 0.2, y + 0.05),
                        ("sans-serif", 15).into_font().color(&BLACK),
                    )])
                    .map_err(err)?;
            }
        }
        root.present().map_err(err)?;
    }
    Ok(svg)
}
