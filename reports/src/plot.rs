//! Convergence plots of a tuning run: each parameter over the iterations, normalised by its range
//! so that parameters of different scales share one axis; and plots of quantities that share
//! their units (a training run's losses per epoch), drawn on one axis of those units.
//!
//! The figure is an SVG only: its labels are SVG `<text>`, which the viewer renders. plotters
//! draws text into bitmaps only through a font engine (`ttf`, which needs fontconfig and system
//! fonts, or `ab_glyph`, which needs a font file shipped with the program), and a PNG without its
//! title, axes and legend could not be read, so koom writes none.

use std::fmt;

use plotters::coord::Shift;
use plotters::prelude::*;

/// One parameter's trajectory.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub name: String,
    /// The parameter's range: values are drawn as `(value - min) / (max - min)`.
    pub min: f64,
    pub max: f64,
    /// The value after each iteration, `values[0]` being the start.
    pub values: Vec<f64>,
}

impl Series {
    fn normalised(&self) -> impl Iterator<Item = (f64, f64)> + '_ {
        let span = self.max - self.min;
        self.values.iter().enumerate().map(move |(i, v)| {
            let y = if span > 0.0 {
                (v - self.min) / span
            } else {
                0.5
            };
            (i as f64, y)
        })
    }
}

/// The figure: a title, the axes and the series.
#[derive(Clone, Debug, PartialEq)]
pub struct Convergence {
    pub title: String,
    /// What a step of the series is (`iteration`, `epoch`).
    pub x_label: String,
    /// `None`: each series is drawn normalised by its own range (`min`, `max`); `Some(label)`:
    /// every series is drawn as it is, on one axis of these units, spanning their values.
    pub y_label: Option<String>,
    pub series: Vec<Series>,
}

/// A plot could not be drawn or encoded.
#[derive(Debug)]
pub struct PlotError(String);

impl fmt::Display for PlotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot draw the plot: {}", self.0)
    }
}

impl std::error::Error for PlotError {}

impl From<PlotError> for std::io::Error {
    fn from(e: PlotError) -> Self {
        Self::other(e.to_string())
    }
}

fn plot_error(e: impl fmt::Display) -> PlotError {
    PlotError(e.to_string())
}

const SIZE: (u32, u32) = (960, 540);

/// The colour of series `i`: plotters' palette, cycled.
fn colour(i: usize) -> RGBColor {
    let (r, g, b) = Palette99::pick(i).rgb();
    RGBColor(r, g, b)
}

impl Convergence {
    /// The figure as an SVG document, with title, axis labels and legend.
    pub fn svg(&self) -> Result<String, PlotError> {
        let mut text = String::new();
        {
            let root = SVGBackend::with_string(&mut text, SIZE).into_drawing_area();
            self.draw(&root)?;
            root.present().map_err(plot_error)?;
        }
        Ok(text)
    }

    /// The y axis' span: the unit range, or the values' own, each with a margin of 2%.
    fn y_range(&self) -> (f64, f64) {
        if self.y_label.is_none() {
            return (-0.02, 1.02);
        }
        let values = self.series.iter().flat_map(|s| &s.values);
        let finite = values.copied().filter(|v| v.is_finite());
        let (lo, hi) = finite.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
        if lo > hi {
            return (-0.02, 1.02);
        }
        let pad = if hi > lo { (hi - lo) * 0.02 } else { 0.5 };
        (lo - pad, hi + pad)
    }

    /// A series' points as drawn (see [`Convergence::y_label`]).
    fn points<'s>(&self, series: &'s Series) -> Box<dyn Iterator<Item = (f64, f64)> + 's> {
        if self.y_label.is_none() {
            return Box::new(series.normalised());
        }
        let values = series.values.iter().enumerate();
        Box::new(
            values
                .map(|(i, &v)| (i as f64, v))
                .filter(|p| p.1.is_finite()),
        )
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError> {
        root.fill(&WHITE).map_err(plot_error)?;
        let last = self
            .series
            .iter()
            .map(|s| s.values.len().saturating_sub(1))
            .max()
            .unwrap_or(0)
            .max(1) as f64;
        let (lo, hi) = self.y_range();
        let mut chart = ChartBuilder::on(root)
            .margin(16)
            .caption(&self.title, ("sans-serif", 26))
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(0.0..last, lo..hi)
            .map_err(plot_error)?;
        chart
            .configure_mesh()
            .light_line_style(WHITE.mix(0.0))
            .label_style(("sans-serif", 16))
            .axis_desc_style(("sans-serif", 18))
            .x_desc(&self.x_label)
            .y_desc(
                self.y_label
                    .as_deref()
                    .unwrap_or("(value - min) / (max - min)"),
            )
            .draw()
            .map_err(plot_error)?;
        for (i, series) in self.series.iter().enumerate() {
            let style = colour(i).stroke_width(2);
            chart
                .draw_series(LineSeries::new(self.points(series), style))
                .map_err(plot_error)?
                .label(&series.name)
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], colour(i).stroke_width(2))
                });
        }
        if !self.series.is_empty() {
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .label_font(("sans-serif", 16))
                .position(SeriesLabelPosition::UpperRight)
                .draw()
                .map_err(plot_error)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn figure() -> Convergence {
        Convergence {
            title: "ludo-hard".into(),
            x_label: "iteration".into(),
            y_label: None,
            series: vec![
                Series {
                    name: "risk_weight".into(),
                    min: 0.0,
                    max: 10.0,
                    values: vec![0.0, 0.5, 1.0, 1.25],
                },
                Series {
                    name: "capture".into(),
                    min: 0.0,
                    max: 10.0,
                    values: vec![0.5, 1.0, 2.0, 2.5],
                },
            ],
        }
    }

    #[test]
    fn svg_has_a_line_and_a_legend_entry_per_series() {
        let svg = figure().svg().unwrap();
        assert!(svg.starts_with("<svg"));
        for i in 0..2 {
            let RGBColor(r, g, b) = colour(i);
            let stroke = format!("stroke=\"#{r:02X}{g:02X}{b:02X}\" stroke-width=\"2\"");
            // The series' line and its legend swatch.
            assert_eq!(svg.matches(&stroke).count(), 2, "series {i} in {svg}");
        }
        for label in ["risk_weight", "capture", "iteration"] {
            assert!(svg.contains(&format!("\n{label}\n</text>")), "{label}");
        }
    }

    #[test]
    fn a_shared_axis_spans_the_values_and_names_their_units() {
        let mut f = figure();
        f.y_label = Some("mean squared error".into());
        f.series[1].values.push(f64::NAN);
        assert_eq!(f.y_range(), (0.0 - 0.05, 2.5 + 0.05));
        let drawn: Vec<(f64, f64)> = f.points(&f.series[1]).collect();
        assert_eq!(drawn, [(0.0, 0.5), (1.0, 1.0), (2.0, 2.0), (3.0, 2.5)]);
        let svg = f.svg().unwrap();
        assert!(svg.contains("\nmean squared error\n</text>"), "{svg}");
    }

    #[test]
    fn a_single_point_or_a_flat_range_still_draws() {
        let mut f = figure();
        f.series[0].values.truncate(1);
        f.series[1].min = 1.0;
        f.series[1].max = 1.0;
        assert!(f.svg().is_ok());
    }
}
